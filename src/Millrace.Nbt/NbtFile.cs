using System.Buffers.Binary;
using Millrace.Nbt.Binary;

namespace Millrace.Nbt;

/// <summary>
/// An NBT file as found on disk: its document, the flavour and compression it was stored with, and the 8-byte
/// header of a Bedrock <c>level.dat</c>, so that writing it back in the same flavour reproduces the same bytes.
/// </summary>
/// <param name="Document">The document.</param>
/// <param name="Format">The binary flavour.</param>
/// <param name="Compression">The compression.</param>
/// <param name="LevelDatVersion">The storage version of a Bedrock <c>level.dat</c> header, or <see langword="null"/> when there is none.</param>
public sealed record NbtFile(NbtDocument Document, NbtFormat Format, NbtCompression Compression, int? LevelDatVersion = null)
{
    private static readonly NbtFormat[] DetectionOrder = [NbtFormat.Java, NbtFormat.Bedrock, NbtFormat.JavaNetwork, NbtFormat.BedrockNetwork];

    /// <summary>Reads a file, detecting its compression, a Bedrock <c>level.dat</c> header, and (unless given) its flavour.</summary>
    /// <param name="data">The file's bytes.</param>
    /// <param name="format">The flavour; when <see langword="null"/>, the first of Java, Bedrock, Java network and Bedrock network that reads the whole input.</param>
    /// <param name="options">Limits; its <see cref="NbtReaderOptions.Format"/> is replaced by the flavour tried.</param>
    /// <returns>The file.</returns>
    /// <exception cref="NbtFormatException">No flavour reads the input; the error is the one of <paramref name="format"/>, or of Java.</exception>
    public static NbtFile Read(ReadOnlySpan<byte> data, NbtFormat? format = null, NbtReaderOptions? options = null)
    {
        options ??= NbtReaderOptions.Default;
        var compression = NbtCompressionDetector.Detect(data);
        using var inflated = compression == NbtCompression.None ? null : NbtCompressionDetector.Decompress(data, compression, options.MaxBytes);
        var payload = inflated is null ? data : inflated.WrittenSpan;
        int? levelDatVersion = null;
        if (format is null or NbtFormat.Bedrock && payload.Length > 8
            && BinaryPrimitives.ReadInt32LittleEndian(payload[4..]) == payload.Length - 8 && payload[8] == (byte)Tags.NbtTagType.Compound)
        {
            levelDatVersion = BinaryPrimitives.ReadInt32LittleEndian(payload);
            payload = payload[8..];
            format = NbtFormat.Bedrock;
        }

        if (format is { } known)
        {
            return new NbtFile(ReadAs(payload, known, options), known, compression, levelDatVersion);
        }

        NbtFormatException? first = null;
        foreach (var candidate in DetectionOrder)
        {
            try
            {
                return new NbtFile(ReadAs(payload, candidate, options), candidate, compression);
            }
            catch (NbtFormatException exception)
            {
                first ??= exception;
            }
        }

        throw first!;
    }

    /// <summary>Writes the file in its flavour and compression, with its <c>level.dat</c> header if it has one.</summary>
    /// <returns>The bytes.</returns>
    public byte[] ToArray()
    {
        if (LevelDatVersion is not { } version)
        {
            return Document.ToArray(new NbtWriterOptions { Format = Format, Compression = Compression });
        }

        var body = Document.ToArray(new NbtWriterOptions { Format = Format });
        var withHeader = new byte[body.Length + 8];
        BinaryPrimitives.WriteInt32LittleEndian(withHeader, version);
        BinaryPrimitives.WriteInt32LittleEndian(withHeader.AsSpan(4), body.Length);
        body.CopyTo(withHeader.AsSpan(8));
        if (Compression == NbtCompression.None)
        {
            return withHeader;
        }

        using var compressed = new PooledBufferWriter();
        NbtCompressionDetector.Compress(withHeader, Compression, compressed);
        return compressed.WrittenSpan.ToArray();
    }

    private static NbtDocument ReadAs(ReadOnlySpan<byte> payload, NbtFormat format, NbtReaderOptions options) =>
        new NbtTreeReader(payload, new NbtReaderOptions
        {
            Format = format,
            MaxDepth = options.MaxDepth,
            MaxBytes = options.MaxBytes,
            UnwrapHeterogeneousLists = options.UnwrapHeterogeneousLists,
        }).ReadDocument();
}

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
    // Only the file flavours are guessed: the network flavours are packet encodings, and a nameless root would let
    // them read a file cut to two or three bytes as an empty compound. A network file is read with its flavour named.
    private static readonly NbtFormat[] DetectionOrder = [NbtFormat.Java, NbtFormat.Bedrock];

    /// <summary>Reads a file, detecting its compression, a Bedrock <c>level.dat</c> header, and (unless given) its flavour.</summary>
    /// <param name="data">The file's bytes.</param>
    /// <param name="format">
    /// The flavour; when <see langword="null"/>, Java or Bedrock, whichever reads the whole input. When both do, with
    /// different trees, the input is ambiguous and refused; with the same tree, it is Java.
    /// </param>
    /// <param name="options">Limits; its <see cref="NbtReaderOptions.Format"/> is replaced by the flavour tried.</param>
    /// <returns>The file.</returns>
    /// <exception cref="NbtFormatException">
    /// No flavour reads the input (the error is the one of <paramref name="format"/>, or of Java), or it is ambiguous.
    /// </exception>
    public static NbtFile Read(ReadOnlySpan<byte> data, NbtFormat? format = null, NbtReaderOptions? options = null)
    {
        options ??= NbtReaderOptions.Default;
        options.Validate();
        using var payload = NbtPayload.Open(data, options.MaxBytes);
        try
        {
            return ReadPayload(payload.Bytes, payload.Compression, format, options);
        }
        catch (NbtFormatException exception) when (payload.ScopeOffset(exception))
        {
            throw;
        }
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
        NbtCompressionCodec.Compress(withHeader, Compression, compressed);
        return compressed.WrittenSpan.ToArray();
    }

    private static NbtFile ReadPayload(ReadOnlySpan<byte> payload, NbtCompression compression, NbtFormat? format, NbtReaderOptions options)
    {
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

        NbtFile? found = null;
        NbtFormatException? first = null;
        foreach (var candidate in DetectionOrder)
        {
            NbtDocument document;
            try
            {
                document = ReadAs(payload, candidate, options);
            }
            catch (NbtFormatException exception)
            {
                first ??= exception;
                continue;
            }

            if (found is null)
            {
                found = new NbtFile(document, candidate, compression);
            }
            else if (!found.Document.Equals(document))
            {
                NbtThrow.AmbiguousFlavour(found.Format, candidate);
            }
        }

        return found ?? throw first!;
    }

    private static NbtDocument ReadAs(ReadOnlySpan<byte> payload, NbtFormat format, NbtReaderOptions options) =>
        NbtDocumentReader.Read(payload, options with { Format = format });
}

using System.Buffers;
using System.Globalization;
using System.IO.Compression;
using Millrace.Compression;

namespace Millrace.Compact;

/// <summary>
/// The frame around every payload: byte 0 the format version (1); byte 1 the flags (bits 0–1 the compression,
/// bit 2 set for a collection, bit 3 set for a compressed single record whose keys are written as steps); a varint
/// type id; then the body, compressed as the flags say. A single record's body is its fields; a collection's body is
/// a varint count and each record's fields, length-delimited.
/// </summary>
public static class CompactFrame
{
    /// <summary>The format version this library writes and reads.</summary>
    public const byte Version = 1;

    private const byte CollectionFlag = 0b100;

    // Set only beside a compression, on a single record: its keys' indices are steps from the previous key's
    // (CompactKeySteps), which compress better; Read restores them.
    private const byte KeyStepsFlag = 0b1000;

    /// <summary>Writes a frame around <paramref name="body"/>, compressing it if asked and if that makes it smaller.</summary>
    /// <param name="output">Where the frame goes.</param>
    /// <param name="typeId">The type id from the registry.</param>
    /// <param name="isCollection">Whether the body is a collection.</param>
    /// <param name="body">The uncompressed body.</param>
    /// <param name="compression">The compression wanted; <see cref="CompactCompression.Auto"/> keeps the smallest.</param>
    /// <param name="zstdDictionary">The dictionary zstd compresses with, if any; readers need the same one.</param>
    public static void Write(IBufferWriter<byte> output, int typeId, bool isCollection, ReadOnlySpan<byte> body, CompactCompression compression = CompactCompression.None, CompactZstdDictionary? zstdDictionary = null)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentOutOfRangeException.ThrowIfNegative(typeId);
        var chosen = CompactCompression.None;
        var chosenSteps = false;
        byte[]? compressed = null;
        var codecs = compression switch
        {
            CompactCompression.None => [],
            CompactCompression.Auto => [CompactCompression.Deflate, CompactCompression.Brotli, CompactCompression.Zstd],
            _ => new[] { compression },
        };
        using var stepped = codecs.Length > 0 && !isCollection ? new PooledBufferWriter() : null;
        // Every codec on the body as it is, then on a single record's body with its keys as steps: a stepped body is
        // kept only when it is smaller than every plain one, which any reader reads.
        var bodies = stepped is not null && CompactKeySteps.TryWrite(body, stepped) ? [false, true] : new[] { false };
        foreach (var withSteps in bodies)
        {
            foreach (var codec in codecs)
            {
                var bytes = Compress(withSteps ? stepped!.WrittenSpan : body, codec, zstdDictionary);
                if (bytes.Length < (compressed?.Length ?? body.Length))
                {
                    compressed = bytes;
                    chosen = codec;
                    chosenSteps = withSteps;
                }
            }
        }

        WriteHeader(output, typeId, (byte)((int)chosen | (isCollection ? CollectionFlag : 0) | (chosenSteps ? KeyStepsFlag : 0)));
        var payload = compressed ?? body;
        payload.CopyTo(output.GetSpan(payload.Length));
        output.Advance(payload.Length);
    }

    /// <summary>Writes a frame's header; the body follows, compressed as <paramref name="compression"/> says.</summary>
    /// <param name="output">Where the header goes.</param>
    /// <param name="typeId">The type id.</param>
    /// <param name="isCollection">Whether the body is a collection.</param>
    /// <param name="compression">The body's compression: none, deflate, Brotli or zstd.</param>
    public static void WriteHeader(IBufferWriter<byte> output, int typeId, bool isCollection, CompactCompression compression)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentOutOfRangeException.ThrowIfNegative(typeId);
        ArgumentOutOfRangeException.ThrowIfGreaterThan((int)compression, (int)CompactCompression.Zstd, nameof(compression));
        WriteHeader(output, typeId, (byte)((int)compression | (isCollection ? CollectionFlag : 0)));
    }

    private static void WriteHeader(IBufferWriter<byte> output, int typeId, byte flags)
    {
        var header = output.GetSpan(12);
        header[0] = Version;
        header[1] = flags;
        output.Advance(2 + Varint.Write(header[2..], (ulong)typeId));
    }

    /// <summary>Reads a frame's header and returns its uncompressed body.</summary>
    /// <param name="data">The frame.</param>
    /// <param name="limits">The body size limit.</param>
    /// <param name="typeId">The type id.</param>
    /// <param name="isCollection">Whether the body is a collection.</param>
    /// <param name="compression">The body's compression.</param>
    /// <param name="zstdDictionary">The dictionary a zstd body was compressed with, if any.</param>
    /// <returns>The body, decompressed into a new array when it was compressed.</returns>
    /// <exception cref="CompactFormatException">The frame is malformed, or its zstd body needs another dictionary.</exception>
    public static ReadOnlyMemory<byte> Read(ReadOnlyMemory<byte> data, CompactLimits limits, out int typeId, out bool isCollection, out CompactCompression compression, CompactZstdDictionary? zstdDictionary = null)
    {
        ArgumentNullException.ThrowIfNull(limits);
        limits.Validate();
        return BodyOf(data, limits, out typeId, out isCollection, out compression, zstdDictionary);
    }

    /// <summary>As <see cref="Read"/>, for the readers of this library, which have validated <paramref name="limits"/> already.</summary>
    internal static ReadOnlyMemory<byte> BodyOf(ReadOnlyMemory<byte> data, CompactLimits limits, out int typeId, out bool isCollection, out CompactCompression compression, CompactZstdDictionary? zstdDictionary)
    {
        // Every message is built in CompactThrow and the compressed path is its own method: a message's formatting
        // here made every read of an uncompressed frame clear its locals first.
        var span = data.Span;
        if (span.Length < 3)
        {
            CompactThrow.FrameTooShort(span.Length);
        }

        if (span[0] != Version)
        {
            CompactThrow.UnknownVersion(span[0], Version);
        }

        var flags = span[1];
        if ((flags & ~0b1111) != 0)
        {
            CompactThrow.UnknownFlags(flags);
        }

        compression = (CompactCompression)(flags & 0b11);
        isCollection = (flags & CollectionFlag) != 0;
        var steps = (flags & KeyStepsFlag) != 0;
        if (steps && (compression == CompactCompression.None || isCollection))
        {
            // Writers step only a compressed single record's keys: a frame that says otherwise was not written by one.
            CompactThrow.MisplacedKeySteps(flags, isCollection);
        }

        var status = Varint.TryRead(span[2..], out uint id, out var used);
        if (status != OperationStatus.Done || id > int.MaxValue || (used > 1 && id < 1U << (7 * (used - 1))))
        {
            CompactThrow.Frame("Malformed type id: a varint from 0 to 2^31-1 in its shortest form.", 2);
        }

        typeId = (int)id;
        var body = data[(2 + used)..];
        if (compression != CompactCompression.None)
        {
            return Decompressed(body.Span, compression, steps, limits.MaxBodyLength, 2 + used, zstdDictionary);
        }

        if (body.Length > limits.MaxBodyLength)
        {
            CompactThrow.BodyOverLimit(body.Length, limits.MaxBodyLength, 2 + used);
        }

        return body;
    }

    // A compressed body inflated within the limit, its key steps restored to indices when the flags say so.
    private static byte[] Decompressed(ReadOnlySpan<byte> body, CompactCompression compression, bool steps, int maxLength, int headerLength, CompactZstdDictionary? zstdDictionary)
    {
        var decompressed = Decompress(body, compression, maxLength, headerLength, zstdDictionary);
        if (!steps)
        {
            return decompressed;
        }

        try
        {
            return CompactKeySteps.Restore(decompressed, maxLength, headerLength);
        }
        catch (CompactFormatException exception) when (exception.Code != CompactErrorCodes.Limit)
        {
            exception.SetOffsetScope($"of the {Name(compression)}-decompressed body");
            throw;
        }
    }

    /// <summary>
    /// Says what a body reader's offset counts; always <see langword="false"/>, for an exception filter around the reading
    /// of a body that <see cref="Read"/> returned.
    /// </summary>
    internal static bool ScopeBodyOffset(CompactFormatException exception, ReadOnlyMemory<byte> frame, ReadOnlyMemory<byte> body, CompactCompression compression)
    {
        exception.SetOffsetScope(compression == CompactCompression.None
            ? string.Create(CultureInfo.InvariantCulture, $"of the body, which starts at byte {frame.Length - body.Length} of the frame")
            : HasKeySteps(frame.Span)
                ? $"of the {Name(compression)}-decompressed body, its key steps restored to indices"
                : $"of the {Name(compression)}-decompressed body");
        return false;
    }

    /// <summary>Whether a frame's single record was compressed with its keys as steps (its flags' bit 3).</summary>
    internal static bool HasKeySteps(ReadOnlySpan<byte> frame) => frame.Length > 1 && (frame[1] & KeyStepsFlag) != 0;

    /// <summary>A compression's name as messages and the inspector give it.</summary>
    internal static string Name(CompactCompression compression) => compression.ToString().ToLowerInvariant();

    private static byte[] Compress(ReadOnlySpan<byte> body, CompactCompression compression, CompactZstdDictionary? zstdDictionary)
    {
        using var output = new PooledBufferWriter();
        BoundedCompression.Compress(body, Codec(compression), output, CompressionLevel.SmallestSize, zstdDictionary is null ? default : zstdDictionary.Bytes.Span);
        return output.WrittenSpan.ToArray();
    }

    private static byte[] Decompress(ReadOnlySpan<byte> body, CompactCompression compression, int maxLength, int headerLength, CompactZstdDictionary? zstdDictionary)
    {
        var outcome = BoundedCompression.TryDecompressToArray(body, Codec(compression), maxLength, out var output, zstdDictionary is null ? default : zstdDictionary.Bytes.Span);
        if (!outcome.IsDone)
        {
            // The offset counts the frame's bytes: the header, then the compressed body.
            CompactThrow.Decompression(outcome, headerLength);
        }

        return output;
    }

    private static CompressionCodec Codec(CompactCompression compression) => compression switch
    {
        CompactCompression.Deflate => CompressionCodec.Zlib,
        CompactCompression.Brotli => CompressionCodec.Brotli,
        _ => CompressionCodec.Zstd,
    };
}

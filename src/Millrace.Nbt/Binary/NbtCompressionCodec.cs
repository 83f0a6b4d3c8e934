using System.Buffers;
using Millrace.Compression;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Recognizes and applies the compressions NBT files use. Public for readers that want the raw bytes of a compressed
/// file without building a tree, e.g. to run an <see cref="NbtPullReader"/> over a gzipped player file.
/// </summary>
public static class NbtCompressionCodec
{
    /// <summary>Detects gzip by its magic number and zlib by its header check; anything else is raw NBT.</summary>
    /// <param name="data">The start of the file, at least its first two bytes.</param>
    /// <returns>The compression the bytes are in.</returns>
    public static NbtCompression Detect(ReadOnlySpan<byte> data)
    {
        if (data.Length >= 2 && data[0] == 0x1F && data[1] == 0x8B)
        {
            return NbtCompression.Gzip;
        }

        // zlib: deflate method (low nibble 8), window ≤ 32 KiB, and the 16-bit header a multiple of 31. No raw NBT
        // starts this way: its first byte is a tag type, at most 12.
        return data.Length >= 2 && (data[0] & 0x0F) == 8 && data[0] >> 4 <= 7 && ((data[0] << 8) | data[1]) % 31 == 0
            ? NbtCompression.Zlib
            : NbtCompression.None;
    }

    /// <summary>Decompresses into a pooled buffer, refusing to inflate past <paramref name="maxBytes"/>.</summary>
    /// <param name="data">The compressed bytes: exactly one complete stream, nothing after it.</param>
    /// <param name="compression">Their compression, e.g. from <see cref="Detect"/>; <see cref="NbtCompression.None"/> copies.</param>
    /// <param name="maxBytes">The most bytes the output may hold: a quota against decompression bombs.</param>
    /// <returns>The bytes, in a buffer whose arrays go back to the pool when it is disposed.</returns>
    /// <exception cref="NbtFormatException">
    /// The stream is corrupt, truncated, followed by other bytes, fails its CRC-32 (gzip) or Adler-32 (zlib) check, or
    /// inflates past <paramref name="maxBytes"/>; its offset counts compressed bytes.
    /// </exception>
    public static PooledBufferWriter Decompress(ReadOnlySpan<byte> data, NbtCompression compression, long maxBytes)
    {
        var output = new PooledBufferWriter();
        if (compression == NbtCompression.None)
        {
            if (data.Length > maxBytes)
            {
                output.Dispose();
                NbtThrow.QuotaExceeded(maxBytes, data.Length);
            }

            data.CopyTo(output.GetSpan(data.Length));
            output.Advance(data.Length);
            return output;
        }

        var outcome = BoundedCompression.TryDecompress(data, Codec(compression), output, maxBytes);
        if (!outcome.IsDone)
        {
            output.Dispose();
            NbtThrow.Decompression(outcome);
        }

        return output;
    }

    /// <summary>Compresses <paramref name="data"/> into <paramref name="output"/>.</summary>
    /// <param name="data">The raw NBT bytes.</param>
    /// <param name="compression">Gzip or zlib.</param>
    /// <param name="output">Where the compressed bytes go.</param>
    public static void Compress(ReadOnlySpan<byte> data, NbtCompression compression, IBufferWriter<byte> output) =>
        BoundedCompression.Compress(data, Codec(compression), output);

    private static CompressionCodec Codec(NbtCompression compression) => compression switch
    {
        NbtCompression.Gzip => CompressionCodec.Gzip,
        NbtCompression.Zlib => CompressionCodec.Zlib,
        _ => throw new ArgumentOutOfRangeException(nameof(compression), compression, "NBT is compressed with gzip or zlib."),
    };
}

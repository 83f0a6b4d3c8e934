using System.Buffers;
using System.IO.Compression;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Recognizes and applies the compressions NBT files use. Public for readers that want the raw bytes of a compressed
/// file without building a tree, e.g. to run an <see cref="NbtPullReader"/> over a gzipped player file.
/// </summary>
public static class NbtCompressionDetector
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
    /// <param name="data">The compressed bytes.</param>
    /// <param name="compression">Their compression, e.g. from <see cref="Detect"/>; <see cref="NbtCompression.None"/> copies.</param>
    /// <param name="maxBytes">The most bytes the output may hold: a quota against decompression bombs.</param>
    /// <returns>The bytes, in a buffer whose arrays go back to the pool when it is disposed.</returns>
    /// <exception cref="NbtFormatException">The stream is corrupt or inflates past <paramref name="maxBytes"/>.</exception>
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

        try
        {
            var input = ArrayPool<byte>.Shared.Rent(data.Length);
            try
            {
                data.CopyTo(input);
                using var source = new MemoryStream(input, 0, data.Length, writable: false);
                using Stream inflater = compression == NbtCompression.Gzip
                    ? new GZipStream(source, CompressionMode.Decompress)
                    : new ZLibStream(source, CompressionMode.Decompress);
                while (true)
                {
                    var read = inflater.Read(output.GetSpan(16 * 1024));
                    if (read == 0)
                    {
                        break;
                    }

                    output.Advance(read);
                    if (output.WrittenCount > maxBytes)
                    {
                        NbtThrow.QuotaExceeded(maxBytes, output.WrittenCount);
                    }
                }
            }
            catch (InvalidDataException exception)
            {
                throw new NbtFormatException($"The {compression} stream is corrupt: {exception.Message}", exception);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(input);
            }

            return output;
        }
        catch
        {
            output.Dispose();
            throw;
        }
    }

    /// <summary>Compresses <paramref name="data"/> into <paramref name="output"/>.</summary>
    /// <param name="data">The raw NBT bytes.</param>
    /// <param name="compression">Gzip or zlib.</param>
    /// <param name="output">Where the compressed bytes go.</param>
    public static void Compress(ReadOnlySpan<byte> data, NbtCompression compression, IBufferWriter<byte> output)
    {
        using var sink = new BufferWriterStream(output);
        using Stream deflater = compression == NbtCompression.Gzip
            ? new GZipStream(sink, CompressionLevel.Optimal, leaveOpen: true)
            : new ZLibStream(sink, CompressionLevel.Optimal, leaveOpen: true);
        deflater.Write(data);
    }

    /// <summary>A write-only stream over a buffer writer, for the compression streams.</summary>
    private sealed class BufferWriterStream(IBufferWriter<byte> output) : Stream
    {
        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            buffer.CopyTo(output.GetSpan(buffer.Length));
            output.Advance(buffer.Length);
        }
    }
}

using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using System.IO.Hashing;
using K4os.Compression.LZ4;

namespace Millrace.Compression;

/// <summary>
/// The framing of lz4-java's <c>LZ4BlockOutputStream</c>, which Minecraft (1.20.5+) uses for chunk compression 4, as
/// <see cref="BoundedCompression"/>'s <see cref="CompressionCodec.Lz4Block"/>. Each block: the magic <c>LZ4Block</c>; a
/// token (method 0x10 raw or 0x20 LZ4, plus log2(block size) − 10); the compressed and original lengths and an XXH32
/// checksum (seed 0x9747B28C, low 28 bits) of the original bytes, all little-endian; then the data. An empty block ends
/// the stream.
/// </summary>
internal static class Lz4BlockStream
{
    private const int HeaderLength = 21;
    private const int BlockSize = 64 * 1024;
    private const int LevelBits = 6; // log2(64 KiB) − 10
    private const byte RawMethod = 0x10;
    private const byte Lz4Method = 0x20;
    private const int ChecksumSeed = unchecked((int)0x9747B28C);

    // LZ4 turns a byte into at most 255 (a match's length runs on in 255-steps, one byte each): a block that claims to
    // inflate further is refused before any room is taken for it, so a tiny input cannot make the decoder reserve the
    // 32 MiB the largest block level allows.
    private const int MaxExpansion = 255;

    private static ReadOnlySpan<byte> Magic => "LZ4Block"u8;

    /// <summary>Compresses <paramref name="input"/> into 64 KiB blocks and the end block.</summary>
    public static void Compress(ReadOnlySpan<byte> input, IBufferWriter<byte> output)
    {
        for (var start = 0; start < input.Length; start += BlockSize)
        {
            var block = input.Slice(start, Math.Min(BlockSize, input.Length - start));
            var span = output.GetSpan(HeaderLength + LZ4Codec.MaximumOutputSize(block.Length));
            var target = span[HeaderLength..];
            var compressed = LZ4Codec.Encode(block, target);
            var method = Lz4Method;
            if (compressed <= 0 || compressed >= block.Length)
            {
                block.CopyTo(target);
                compressed = block.Length;
                method = RawMethod;
            }

            WriteHeader(span, method, compressed, block.Length, Checksum(block));
            output.Advance(HeaderLength + compressed);
        }

        WriteHeader(output.GetSpan(HeaderLength), RawMethod, 0, 0, 0);
        output.Advance(HeaderLength);
    }

    /// <summary>The sum of the blocks' original lengths, read from their headers alone; -1 when a header is missing or impossible.</summary>
    public static long DeclaredLength(ReadOnlySpan<byte> input)
    {
        long total = 0;
        for (var position = 0; input.Length - position >= HeaderLength; )
        {
            var header = input.Slice(position, HeaderLength);
            var compressed = BinaryPrimitives.ReadInt32LittleEndian(header[9..]);
            var original = BinaryPrimitives.ReadInt32LittleEndian(header[13..]);
            if (!header[..Magic.Length].SequenceEqual(Magic) || compressed < 0 || original < 0 || compressed > input.Length - position - HeaderLength)
            {
                return -1;
            }

            if (original == 0)
            {
                return total;
            }

            total += original;
            position += HeaderLength + compressed;
        }

        return -1;
    }

    /// <summary>Decompresses every block straight into <paramref name="target"/>, checking each header, length and checksum against the bytes that exist.</summary>
    public static DecompressionOutcome Decompress(ReadOnlySpan<byte> input, BoundedCompression.InflationTarget target, long maxOutputBytes)
    {
        var position = 0;
        while (true)
        {
            if (input.Length - position < HeaderLength)
            {
                return Fail(DecompressionStatus.Truncated, input.Length, "The LZ4 data ends before its end block: it is truncated.");
            }

            var header = input.Slice(position, HeaderLength);
            if (!header[..Magic.Length].SequenceEqual(Magic))
            {
                return Fail(DecompressionStatus.Corrupt, position, "The LZ4 data has no \"LZ4Block\" block header here.");
            }

            var method = header[8] & 0xF0;
            var level = header[8] & 0x0F;
            var compressed = BinaryPrimitives.ReadInt32LittleEndian(header[9..]);
            var original = BinaryPrimitives.ReadInt32LittleEndian(header[13..]);
            var checksum = BinaryPrimitives.ReadInt32LittleEndian(header[17..]);
            if ((method != RawMethod && method != Lz4Method) || level > 15 || original < 0 || original > 1 << (level + 10)
                || compressed < 0 || (method == RawMethod && compressed != original) || (original == 0 && compressed != 0)
                || original > ((long)compressed * MaxExpansion) + 16)
            {
                return Fail(DecompressionStatus.Corrupt, position + 8, "The LZ4 block header has an impossible method, level or length.");
            }

            if (compressed > input.Length - position - HeaderLength)
            {
                return Fail(DecompressionStatus.Truncated, input.Length, string.Create(CultureInfo.InvariantCulture,
                    $"The LZ4 block at byte {position} declares {compressed} byte(s) but only {input.Length - position - HeaderLength} follow: it is truncated."));
            }

            if (original == 0)
            {
                // lz4-java's end block has a checksum of 0: any other value is damage, not another way to say the same.
                if (checksum != 0)
                {
                    return Fail(DecompressionStatus.Corrupt, position + 17, "The LZ4 end block's checksum is not 0.");
                }

                var end = position + HeaderLength;
                return end == input.Length
                    ? new DecompressionOutcome(DecompressionStatus.Done, end, string.Empty)
                    : Fail(DecompressionStatus.TrailingBytes, end, string.Create(CultureInfo.InvariantCulture, $"{input.Length - end} byte(s) follow the LZ4 end block."));
            }

            if (target.Produced + original > maxOutputBytes)
            {
                return Fail(DecompressionStatus.TooLarge, position + 13, string.Create(CultureInfo.InvariantCulture, $"The LZ4 data inflates past the limit of {maxOutputBytes} bytes."));
            }

            var source = input.Slice(position + HeaderLength, compressed);
            var block = target.Next(original, whole: true);
            if (method == RawMethod)
            {
                source.CopyTo(block);
            }
            else if (LZ4Codec.Decode(source, block) != original)
            {
                return Fail(DecompressionStatus.Corrupt, position + HeaderLength, "The LZ4 block is corrupt.");
            }

            if (Checksum(block) != checksum)
            {
                return Fail(DecompressionStatus.ChecksumMismatch, position + 17, "The LZ4 block's checksum does not match its contents.");
            }

            target.Advance(original);
            position += HeaderLength + compressed;
        }
    }

    private static int Checksum(ReadOnlySpan<byte> block) => (int)(XxHash32.HashToUInt32(block, ChecksumSeed) & 0x0FFFFFFF);

    private static void WriteHeader(Span<byte> header, byte method, int compressed, int original, int checksum)
    {
        Magic.CopyTo(header);
        header[8] = (byte)(method | LevelBits);
        BinaryPrimitives.WriteInt32LittleEndian(header[9..], compressed);
        BinaryPrimitives.WriteInt32LittleEndian(header[13..], original);
        BinaryPrimitives.WriteInt32LittleEndian(header[17..], checksum);
    }

    private static DecompressionOutcome Fail(DecompressionStatus status, long offset, string message) => BoundedCompression.Fail(status, offset, message);
}

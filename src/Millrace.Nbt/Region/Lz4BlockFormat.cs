using System.Buffers.Binary;
using System.Globalization;
using System.IO.Hashing;
using K4os.Compression.LZ4;

namespace Millrace.Nbt.Region;

/// <summary>
/// The framing of lz4-java's <c>LZ4BlockOutputStream</c>, which Minecraft (1.20.5+) uses for chunk compression 4.
/// Each block: the magic <c>LZ4Block</c>; a token (method 0x10 raw or 0x20 LZ4, plus log2(block size) − 10); the
/// compressed and original lengths and an XXH32 checksum (seed 0x9747B28C, low 28 bits) of the original bytes, all
/// little-endian; then the data. An empty block ends the stream.
/// </summary>
internal static class Lz4BlockFormat
{
    private const int HeaderLength = 21;
    private const int BlockSize = 64 * 1024;
    private const int LevelBits = 6; // log2(64 KiB) − 10
    private const byte RawMethod = 0x10;
    private const byte Lz4Method = 0x20;
    private const int ChecksumSeed = unchecked((int)0x9747B28C);

    private static ReadOnlySpan<byte> Magic => "LZ4Block"u8;

    /// <summary>Compresses <paramref name="data"/> into 64 KiB blocks and the end block.</summary>
    public static byte[] Compress(ReadOnlySpan<byte> data)
    {
        var blocks = (data.Length + BlockSize - 1) / BlockSize;
        var output = new byte[(blocks * (HeaderLength + LZ4Codec.MaximumOutputSize(BlockSize))) + HeaderLength];
        var position = 0;
        for (var start = 0; start < data.Length; start += BlockSize)
        {
            var block = data.Slice(start, Math.Min(BlockSize, data.Length - start));
            var target = output.AsSpan(position + HeaderLength);
            var compressed = LZ4Codec.Encode(block, target);
            var method = Lz4Method;
            if (compressed <= 0 || compressed >= block.Length)
            {
                block.CopyTo(target);
                compressed = block.Length;
                method = RawMethod;
            }

            WriteHeader(output.AsSpan(position), method, compressed, block.Length, Checksum(block));
            position += HeaderLength + compressed;
        }

        WriteHeader(output.AsSpan(position), RawMethod, 0, 0, 0);
        return output.AsSpan(0, position + HeaderLength).ToArray();
    }

    /// <summary>Decompresses every block, checking each header, length and checksum against the bytes that exist.</summary>
    /// <exception cref="NbtFormatException">The data is not a well-formed LZ4 block stream, or inflates past <paramref name="maxLength"/>.</exception>
    public static byte[] Decompress(ReadOnlySpan<byte> data, long maxLength)
    {
        using var output = new MemoryStream();
        var position = 0;
        while (true)
        {
            if (data.Length - position < HeaderLength || !data.Slice(position, Magic.Length).SequenceEqual(Magic))
            {
                throw Error("an LZ4 block header (\"LZ4Block\" and 13 bytes) is missing", position);
            }

            var header = data.Slice(position, HeaderLength);
            var method = header[8] & 0xF0;
            var level = header[8] & 0x0F;
            var compressed = BinaryPrimitives.ReadInt32LittleEndian(header[9..]);
            var original = BinaryPrimitives.ReadInt32LittleEndian(header[13..]);
            var checksum = BinaryPrimitives.ReadInt32LittleEndian(header[17..]);
            if ((method != RawMethod && method != Lz4Method) || level > 15 || original < 0 || original > 1 << (level + 10)
                || compressed < 0 || compressed > data.Length - position - HeaderLength || (method == RawMethod && compressed != original))
            {
                throw Error("the LZ4 block header has an impossible method, level or length", position + 8);
            }

            if (original == 0)
            {
                var end = position + HeaderLength;
                return end == data.Length
                    ? output.ToArray()
                    : throw Error(string.Create(CultureInfo.InvariantCulture, $"{data.Length - end} byte(s) follow the LZ4 end block"), end);
            }

            if (output.Length + original > maxLength)
            {
                throw Error(string.Create(CultureInfo.InvariantCulture, $"the chunk inflates past the byte quota of {maxLength}"), position + 13);
            }

            var source = data.Slice(position + HeaderLength, compressed);
            var block = new byte[original];
            if (method == RawMethod)
            {
                source.CopyTo(block);
            }
            else if (LZ4Codec.Decode(source, block) != original)
            {
                throw Error("the LZ4 block is corrupt", position + HeaderLength);
            }

            if (Checksum(block) != checksum)
            {
                throw Error("the LZ4 block's checksum does not match its contents", position + 17);
            }

            output.Write(block);
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

    private static NbtFormatException Error(string reason, long offset) =>
        new(NbtErrorCodes.Compression, char.ToUpperInvariant(reason[0]) + reason[1..] + ".", offset);
}

using System.Buffers.Binary;
using System.IO.Compression;
using System.Text;
using Millrace.Compression;

namespace Millrace.Core.Tests.Compression;

public class BoundedCompressionTests
{
    private static readonly byte[] Sample = Encoding.UTF8.GetBytes(string.Concat(Enumerable.Range(0, 300).Select(i => $"item {i} of a sample that compresses; ")));

    public static TheoryData<CompressionCodec> Codecs => [CompressionCodec.Gzip, CompressionCodec.Zlib, CompressionCodec.Brotli, CompressionCodec.Zstd, CompressionCodec.Lz4Block];

    [Theory]
    [MemberData(nameof(Codecs))]
    public void TryDecompress_CompleteStream_GivesTheBytesBack(CompressionCodec codec)
    {
        var compressed = Compress(codec, Sample);
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(compressed, codec, output, maxOutputBytes: Sample.Length);

        Assert.True(outcome.IsDone, outcome.Message);
        Assert.Equal(Sample, output.WrittenSpan.ToArray());
    }

    [Theory]
    [MemberData(nameof(Codecs))]
    public void TryDecompress_EveryTruncation_IsRefused(CompressionCodec codec)
    {
        var compressed = Compress(codec, Sample);
        for (var length = 0; length < compressed.Length; length++)
        {
            using var output = new PooledBufferWriter();
            var outcome = BoundedCompression.TryDecompress(compressed.AsSpan(0, length), codec, output, maxOutputBytes: 1 << 20);
            Assert.False(outcome.IsDone, $"{codec} cut to {length} of {compressed.Length} bytes was accepted");
            Assert.False(string.IsNullOrEmpty(outcome.Message));
        }
    }

    [Theory]
    [MemberData(nameof(Codecs))]
    public void TryDecompress_TrailingBytes_AreRefused(CompressionCodec codec)
    {
        foreach (var tail in new byte[][] { [0], [1, 2, 3], [0x1F, 0x8B], new byte[9] })
        {
            var compressed = Compress(codec, Sample).Concat(tail).ToArray();
            using var output = new PooledBufferWriter();
            var outcome = BoundedCompression.TryDecompress(compressed, codec, output, maxOutputBytes: 1 << 20);
            Assert.False(outcome.IsDone, $"{codec} followed by {tail.Length} byte(s) was accepted");
        }
    }

    // What follows a whole stream used to pass when it ended as the stream does (the checksum trailer, read from the
    // input's end, then matched), or was itself a whole stream (the zstd reader read on into a second frame).
    [Theory]
    [MemberData(nameof(Codecs))]
    public void TryDecompress_BytesEndingAsTheStreamDoes_OrASecondStream_AreRefused(CompressionCodec codec)
    {
        var compressed = Compress(codec, Sample);
        byte[] skippableFrame = [0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4];
        foreach (var tail in new[] { [.. "JUNKJUNK"u8, .. compressed[^8..]], compressed, skippableFrame })
        {
            using var output = new PooledBufferWriter();
            var outcome = BoundedCompression.TryDecompress([.. compressed, .. tail], codec, output, maxOutputBytes: 1 << 20);
            Assert.False(outcome.IsDone, $"{codec} followed by {tail.Length} byte(s) was accepted");
        }
    }

    // The end block's checksum field was not read, so any 4 bytes there passed.
    [Fact]
    public void TryDecompress_Lz4EndBlockWithAChecksum_IsRefused()
    {
        var compressed = Compress(CompressionCodec.Lz4Block, Sample);
        compressed[^1] = 1;
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(compressed, CompressionCodec.Lz4Block, output, maxOutputBytes: 1 << 20);

        Assert.Equal(DecompressionStatus.Corrupt, outcome.Status);
        Assert.Equal(compressed.Length - 4, outcome.Offset);
    }

    // Junk after a zstd frame was read as a next frame and called corrupt, with a hint about dictionaries.
    [Fact]
    public void TryDecompress_JunkAfterAZstdFrame_IsTrailingBytesAtTheFramesEnd()
    {
        var compressed = Compress(CompressionCodec.Zstd, Sample);
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress([.. compressed, 0, 1, 2], CompressionCodec.Zstd, output, maxOutputBytes: 1 << 20);

        Assert.Equal(DecompressionStatus.TrailingBytes, outcome.Status);
        Assert.Equal(compressed.Length, outcome.Offset);
    }

    // A checksum that does not match was reported in the platform's words: "an unsupported compression method".
    [Theory]
    [InlineData(CompressionCodec.Gzip)]
    [InlineData(CompressionCodec.Zlib)]
    public void TryDecompress_ABadChecksum_IsSaidAsSuch(CompressionCodec codec)
    {
        var compressed = Compress(codec, Sample);
        compressed[^(codec == CompressionCodec.Gzip ? 8 : 1)] ^= 0x01;
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(compressed, codec, output, maxOutputBytes: 1 << 20);

        Assert.False(outcome.IsDone);
        Assert.DoesNotContain("unsupported", outcome.Message, StringComparison.Ordinal);
        Assert.Contains("checksum", outcome.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData(CompressionCodec.Zlib)]
    [InlineData(CompressionCodec.Zstd)]
    public void TryDecompress_BytesAfterTheStream_AreTrailingBytes(CompressionCodec codec)
    {
        var compressed = Compress(codec, Sample);
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress([.. compressed, .. compressed], codec, output, maxOutputBytes: 1 << 20);

        Assert.Equal(DecompressionStatus.TrailingBytes, outcome.Status);
        Assert.Equal(codec == CompressionCodec.Zstd ? compressed.Length : (2 * compressed.Length) - 1, outcome.Offset);
    }

    [Theory]
    [InlineData(CompressionCodec.Gzip)]
    [InlineData(CompressionCodec.Zlib)]
    [InlineData(CompressionCodec.Zstd)]
    [InlineData(CompressionCodec.Lz4Block)]
    public void TryDecompress_BitFlips_NeverThrowAndNeverGiveOtherBytes(CompressionCodec codec)
    {
        // Every codec with a checksum: a flipped bit is refused or (in a header field that changes nothing) harmless.
        var compressed = Compress(codec, Sample);
        var random = new Random(1234);
        for (var trial = 0; trial < 400; trial++)
        {
            var damaged = (byte[])compressed.Clone();
            damaged[random.Next(damaged.Length)] ^= (byte)(1 << random.Next(8));
            using var output = new PooledBufferWriter();
            var outcome = BoundedCompression.TryDecompress(damaged, codec, output, maxOutputBytes: 1 << 20);
            if (outcome.IsDone)
            {
                Assert.Equal(Sample, output.WrittenSpan.ToArray());
            }
        }
    }

    [Fact]
    public void TryDecompress_Brotli_BitFlips_NeverThrow()
    {
        var compressed = Compress(CompressionCodec.Brotli, Sample);
        var random = new Random(99);
        for (var trial = 0; trial < 400; trial++)
        {
            var damaged = (byte[])compressed.Clone();
            damaged[random.Next(damaged.Length)] ^= (byte)(1 << random.Next(8));
            using var output = new PooledBufferWriter();
            _ = BoundedCompression.TryDecompress(damaged, CompressionCodec.Brotli, output, maxOutputBytes: 1 << 20);
        }
    }

    [Theory]
    [MemberData(nameof(Codecs))]
    public void TryDecompress_PastTheLimit_StopsWithinTheLimit(CompressionCodec codec)
    {
        var zeros = new byte[4 << 20];
        var compressed = Compress(codec, zeros);
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(compressed, codec, output, maxOutputBytes: 100_000);

        Assert.Equal(DecompressionStatus.TooLarge, outcome.Status);
        Assert.True(output.WrittenCount <= 100_001);
        Assert.True(output.Capacity <= 2 * 131_072, $"the buffer grew to {output.Capacity} bytes for a 100,000-byte limit");
    }

    [Fact]
    public void Lz4Block_ManyBlocks_RoundTripsAndEveryBlockIsChecked()
    {
        // 200 KB: three full 64 KiB blocks and a short one, some compressible and some not (raw blocks).
        var random = new Random(7);
        var data = new byte[200_000];
        random.NextBytes(data.AsSpan(0, 70_000));
        var compressed = Compress(CompressionCodec.Lz4Block, data);
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(compressed, CompressionCodec.Lz4Block, output, maxOutputBytes: data.Length);

        Assert.True(outcome.IsDone, outcome.Message);
        Assert.Equal(data, output.WrittenSpan.ToArray());
        Assert.Equal(5, CountOccurrences(compressed, "LZ4Block"u8.ToArray()));
    }

    [Fact]
    public void Lz4Block_TinyBlockClaimingAHugeSize_IsRefusedBeforeAnyRoomIsTaken()
    {
        // One LZ4 block header (level 15: blocks of up to 32 MiB) claiming 32 MiB from one byte of data.
        byte[] input = [.. "LZ4Block"u8, 0x2F, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0x00];
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(input, CompressionCodec.Lz4Block, output, maxOutputBytes: 100 << 20);

        Assert.Equal(DecompressionStatus.Corrupt, outcome.Status);
        Assert.True(output.Capacity < 1 << 20, $"the buffer grew to {output.Capacity} bytes");
    }

    [Fact]
    public void Lz4Block_EndBlockWithData_IsCorrupt()
    {
        var compressed = Compress(CompressionCodec.Lz4Block, Sample);
        var end = compressed.Length - 21;
        compressed[end + 9] = 1;
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(compressed, CompressionCodec.Lz4Block, output, maxOutputBytes: 1 << 20);

        Assert.False(outcome.IsDone);
    }

    [Fact]
    public void Lz4Block_LastBlockChecksumWrong_IsAChecksumMismatchAtThatHeader()
    {
        var compressed = Compress(CompressionCodec.Lz4Block, Sample);
        compressed[17] ^= 0x01;
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(compressed, CompressionCodec.Lz4Block, output, maxOutputBytes: 1 << 20);

        Assert.Equal(DecompressionStatus.ChecksumMismatch, outcome.Status);
        Assert.Equal(17, outcome.Offset);
    }

    [Fact]
    public void TryDecompress_ZstdDeclaringAHugeSize_AllocatesOnlyWhatItProduces()
    {
        // A 16-byte frame whose header declares 64 MiB of content but whose body is one byte.
        byte[] bomb = [0x28, 0xB5, 0x2F, 0xFD, 0xA0, 0x00, 0x00, 0x00, 0x04, 0x09, 0x00, 0x00, 0x41];
        using var output = new PooledBufferWriter();
        var before = GC.GetAllocatedBytesForCurrentThread();

        var outcome = BoundedCompression.TryDecompress(bomb, CompressionCodec.Zstd, output, maxOutputBytes: 64 << 20);

        Assert.False(outcome.IsDone);
        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 8 << 20, "decompression trusted the declared size");
    }

    [Fact]
    public void TryDecompress_BadZlibHeader_IsCorruptNotAPlatformException()
    {
        byte[] input = [0x28, 0x72, 0x00, 0x00, 0x00, 0x00];
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(input, CompressionCodec.Zlib, output, 1 << 20);

        Assert.False(outcome.IsDone);
    }

    [Fact]
    public void TryDecompress_OneByteBrotli_IsRefused()
    {
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress([0xFD], CompressionCodec.Brotli, output, 1 << 20);

        Assert.False(outcome.IsDone);
    }

    [Fact]
    public void TryDecompress_GzipTrailerWithAWrongLength_IsRefused()
    {
        var compressed = Compress(CompressionCodec.Gzip, Sample);
        BinaryPrimitives.WriteUInt32LittleEndian(compressed.AsSpan(compressed.Length - 4), (uint)Sample.Length + 1);
        using var output = new PooledBufferWriter();

        var outcome = BoundedCompression.TryDecompress(compressed, CompressionCodec.Gzip, output, 1 << 20);

        Assert.False(outcome.IsDone);
        Assert.Contains("gzip", outcome.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Compress_Zstd_WritesTheContentChecksum()
    {
        var compressed = Compress(CompressionCodec.Zstd, Sample);

        // Frame header descriptor, after the 4-byte magic: bit 2 is the content checksum flag.
        Assert.NotEqual(0, compressed[4] & 0b100);
    }

    [Fact]
    public void Adler32_MatchesZlibsTrailer()
    {
        using var buffer = new MemoryStream();
        using (var zlib = new ZLibStream(buffer, CompressionLevel.Fastest, leaveOpen: true))
        {
            zlib.Write(Sample);
        }

        var bytes = buffer.ToArray();
        Assert.Equal(BinaryPrimitives.ReadUInt32BigEndian(bytes.AsSpan(bytes.Length - 4)), BoundedCompression.Adler32(Sample));
        Assert.Equal(1u, BoundedCompression.Adler32([]));
    }

    private static byte[] Compress(CompressionCodec codec, byte[] data)
    {
        using var output = new PooledBufferWriter();
        BoundedCompression.Compress(data, codec, output);
        return output.WrittenSpan.ToArray();
    }

    private static int CountOccurrences(byte[] haystack, byte[] needle)
    {
        var count = 0;
        for (var index = haystack.AsSpan().IndexOf(needle); index >= 0;)
        {
            count++;
            var next = haystack.AsSpan(index + 1).IndexOf(needle);
            index = next < 0 ? -1 : index + 1 + next;
        }

        return count;
    }
}

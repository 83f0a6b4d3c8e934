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

    // A refusal and an acceptance each cost at most 1.25 times the limit and 1 MiB: output grew by doubling and
    // copying past the limit, four times it for a 64 MiB limit. Each codec, inflating to twice the limit (refused) and
    // to exactly the limit (two passes: counted, then inflated into one array of that length). The output's pool keeps
    // nothing, so every array it hands out is an allocation, as in a process that has not decompressed yet.
    [Theory]
    [MemberData(nameof(Codecs))]
    public void TryDecompress_AllocatesAtMostTheLimitAndAQuarter(CompressionCodec codec)
    {
        const int Limit = 16 << 20;
        foreach (var (length, done) in new[] { (2 * Limit, false), (Limit, true), (Limit - 100_000, true), (FirstPass + 1, true), (FirstPass / 2, true) })
        {
            var compressed = Compress(codec, new byte[length]);
            using var output = new PooledBufferWriter(pool: new NonCachingPool());
            var before = GC.GetAllocatedBytesForCurrentThread();

            var outcome = BoundedCompression.TryDecompress(compressed, codec, output, maxOutputBytes: Limit);

            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.True(outcome.IsDone == done, outcome.Message);
            Assert.True(allocated <= Bound(Limit), $"{codec}, {length} bytes: {allocated:N0} bytes allocated, more than {Bound(Limit):N0}");
            if (done)
            {
                Assert.Equal(length, output.WrittenCount);
                Assert.True(output.WrittenSpan.IndexOfAnyExcept((byte)0) < 0);
            }
        }
    }

    // A declared length is a hint used once the stream has produced its first 512 KiB: a gzip trailer or zstd header
    // claiming the limit costs nothing for a stream that stops short, and a stream running past it is refused.
    [Theory]
    [InlineData(CompressionCodec.Gzip)]
    [InlineData(CompressionCodec.Zstd)]
    public void TryDecompress_ADeclaredLength_IsAHintTheStreamMustKeep(CompressionCodec codec)
    {
        const int Limit = 16 << 20;
        var honest = Compress(codec, new byte[3 << 20]);
        var lying = (byte[])honest.Clone();
        if (codec == CompressionCodec.Gzip)
        {
            // The trailer says 2 MiB (with the CRC of 3 MiB of zeros it keeps, the length alone is wrong).
            BinaryPrimitives.WriteUInt32LittleEndian(lying.AsSpan(lying.Length - 4), 2u << 20);
        }
        else
        {
            Assert.Equal(3 << 20, ZstdDeclared(honest));
        }

        using (var output = new PooledBufferWriter())
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            Assert.True(BoundedCompression.TryDecompress(honest, codec, output, Limit).IsDone);
            Assert.True(GC.GetAllocatedBytesForCurrentThread() - before <= (3 << 20) + (1 << 20), "a declared length was not used");
        }

        if (codec == CompressionCodec.Gzip)
        {
            using var output = new PooledBufferWriter();
            var before = GC.GetAllocatedBytesForCurrentThread();
            var outcome = BoundedCompression.TryDecompress(lying, codec, output, Limit);

            // The platform's reader checks the trailer's length too; either way the stream is refused, costing the hint.
            Assert.Contains(outcome.Status, new[] { DecompressionStatus.ChecksumMismatch, DecompressionStatus.Corrupt });
            Assert.True(GC.GetAllocatedBytesForCurrentThread() - before <= (2 << 20) + (1 << 20));
        }

        // A zstd header declaring a length past the limit is refused before anything is inflated; gzip's last four bytes
        // may not be its trailer (bytes may follow), so its stream is inflated up to the limit.
        using (var output = new PooledBufferWriter())
        {
            var outcome = BoundedCompression.TryDecompress(honest, codec, output, maxOutputBytes: 1 << 20);
            Assert.Equal(DecompressionStatus.TooLarge, outcome.Status);
            Assert.Equal(codec == CompressionCodec.Zstd, outcome.Message.Contains("it declares 3145728 bytes", StringComparison.Ordinal));
            Assert.True(output.WrittenCount <= (codec == CompressionCodec.Zstd ? 0 : FirstPass));
        }

        static long ZstdDeclared(byte[] frame) => frame[4] >> 6 == 2 ? BinaryPrimitives.ReadUInt32LittleEndian(frame.AsSpan(5 + ((frame[4] & 0x20) != 0 ? 0 : 1))) : -1;
    }

    [Fact]
    public void TryDecompress_IntoAWriterHoldingBytes_KeepsThem()
    {
        var compressed = Compress(CompressionCodec.Zlib, new byte[FirstPass * 3]);
        using var output = new PooledBufferWriter();
        output.GetSpan(3)[..3].Fill(7);
        output.Advance(3);

        Assert.True(BoundedCompression.TryDecompress(compressed, CompressionCodec.Zlib, output, maxOutputBytes: 4 << 20).IsDone);
        Assert.Equal(3 + (FirstPass * 3), output.WrittenCount);
        Assert.Equal([7, 7, 7, 0], output.WrittenSpan[..4].ToArray());
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

    // The vectorized checksum against RFC 1950's definition, byte by byte, at every length around its 32-byte blocks and
    // its 5,552-byte runs, over bytes of 255 (the sums' largest) and random ones; and zlib's own trailer on long input.
    [Fact]
    public void Adler32_IsRfc1950sSum_AtEveryLengthAroundItsBlocksAndRuns()
    {
        var random = new Random(43);
        var data = new byte[3 * 5552 + 100];
        random.NextBytes(data);
        var saturated = Enumerable.Repeat((byte)255, data.Length).ToArray();
        foreach (var length in Enumerable.Range(0, 200).Concat(Enumerable.Range(5500, 120)).Concat([2 * 5552, (2 * 5552) + 31, data.Length]))
        {
            Assert.Equal(Reference(data.AsSpan(0, length)), BoundedCompression.Adler32(data.AsSpan(0, length)));
            Assert.Equal(Reference(saturated.AsSpan(0, length)), BoundedCompression.Adler32(saturated.AsSpan(0, length)));
        }

        var large = new byte[3_000_001];
        random.NextBytes(large);
        using var buffer = new MemoryStream();
        using (var zlib = new ZLibStream(buffer, CompressionLevel.Fastest, leaveOpen: true))
        {
            zlib.Write(large);
        }

        Assert.Equal(BinaryPrimitives.ReadUInt32BigEndian(buffer.ToArray().AsSpan((int)buffer.Length - 4)), BoundedCompression.Adler32(large));

        static uint Reference(ReadOnlySpan<byte> bytes)
        {
            ulong a = 1, b = 0;
            foreach (var value in bytes)
            {
                a = (a + value) % 65521;
                b = (b + a) % 65521;
            }

            return (uint)((b << 16) | a);
        }
    }

    private const int FirstPass = 512 * 1024;

    /// <summary>A pool that keeps nothing: every rent is a new array.</summary>
    private sealed class NonCachingPool : System.Buffers.ArrayPool<byte>
    {
        public override byte[] Rent(int minimumLength) => new byte[minimumLength];

        public override void Return(byte[] array, bool clearArray = false)
        {
        }
    }

    private static long Bound(long limit) => (limit * 5 / 4) + (1 << 20);

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

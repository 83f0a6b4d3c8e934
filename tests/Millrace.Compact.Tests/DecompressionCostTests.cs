using System.IO.Compression;
using Millrace.Compact.Serialization;
using Millrace.Compression;

namespace Millrace.Compact.Tests;

/// <summary>
/// What refusing a compressed frame costs, measured as the bytes this thread allocates, against 1.25 times the body
/// limit and 1 MiB: before, output grew by doubling and copying past the limit, and a 106-byte frame made a decode
/// allocate 192 MiB and an inspection 253 MiB.
/// </summary>
public class DecompressionCostTests
{
    private static readonly long Bound = (CompactLimitsConstants.MaxBodyLength * 5L / 4) + (1 << 20);

    public static TheoryData<string> Bombs => ["brotli two-byte fields", "brotli two-byte fields under the limit", "zstd zeros", "zstd declaring 1 GB", "deflate two-byte fields", "zstd two-byte fields, keys as steps"];

    [Theory]
    [MemberData(nameof(Bombs))]
    public void Deserialize_OfABomb_CostsAtMostTheLimitAndAQuarter(string bomb)
    {
        var frame = Frame(bomb);
        var allocated = Allocated(() => Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Probe>(frame)));
        Assert.True(allocated <= Bound, $"{bomb} ({frame.Length} bytes): {allocated:N0} bytes allocated, over {Bound:N0}");
    }

    [Theory]
    [MemberData(nameof(Bombs))]
    public void Describe_OfABomb_CostsAtMostTheLimitAndAQuarter(string bomb)
    {
        var frame = Frame(bomb);
        var allocated = Allocated(() => Assert.Throws<CompactFormatException>(() => CompactInspector.Describe(frame)));
        Assert.True(allocated <= Bound, $"{bomb} ({frame.Length} bytes): {allocated:N0} bytes allocated, over {Bound:N0}");
    }

    private static long Allocated(Action action)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        action();
        return GC.GetAllocatedBytesForCurrentThread() - before;
    }

    // A frame of type 1 whose body is the bomb: two-byte fields are field 1 (a varint) again and again, which a decode
    // refuses as a repeated field and an inspection describes line by line until its limits.
    private static byte[] Frame(string bomb)
    {
        var limit = CompactLimitsConstants.MaxBodyLength;
        return bomb switch
        {
            "brotli two-byte fields" => Framed(2, Compress(CompressionCodec.Brotli, Fields(limit + 2))),
            "brotli two-byte fields under the limit" => Framed(2, Compress(CompressionCodec.Brotli, Fields(limit - 2))),
            "zstd zeros" => Framed(3, Compress(CompressionCodec.Zstd, new byte[limit])),
            "deflate two-byte fields" => Framed(1, Compress(CompressionCodec.Zlib, Fields(limit + 2))),
            "zstd two-byte fields, keys as steps" => Framed(3 | 0b1000, Compress(CompressionCodec.Zstd, Steps(limit / 2))),
            _ => Framed(3, DeclaringOneGigabyte()),
        };

        static byte[] Fields(int length)
        {
            var body = new byte[length];
            for (var i = 0; i < body.Length; i += 2)
            {
                body[i] = 1 << 2;
                body[i + 1] = 1;
            }

            return body;
        }

        // Key steps of 1 from index 1 upward: a body that restores to more than twice its length.
        static byte[] Steps(int fields)
        {
            var body = new byte[fields * 2];
            for (var i = 0; i < body.Length; i += 2)
            {
                body[i] = 1 << 2;
                body[i + 1] = 1;
            }

            return body;
        }

        // A zstd frame whose header declares 1 GB and whose 32 KB of blocks hold far less.
        static byte[] DeclaringOneGigabyte()
        {
            var real = Compress(CompressionCodec.Zstd, new byte[40 << 20]);
            var frame = new byte[real.Length + 4];
            real.AsSpan(0, 4).CopyTo(frame);
            frame[4] = 0xA0; // single segment, an 4-byte content size
            BitConverter.TryWriteBytes(frame.AsSpan(5), 1_000_000_000u);
            real.AsSpan(6).CopyTo(frame.AsSpan(9));
            return frame;
        }
    }

    private static byte[] Framed(int flags, byte[] body) => [CompactFrame.Version, (byte)flags, 1, .. body];

    private static byte[] Compress(CompressionCodec codec, byte[] data)
    {
        using var output = new PooledBufferWriter();
        BoundedCompression.Compress(data, codec, output, CompressionLevel.Fastest);
        return output.ToArray();
    }
}

[CompactSchema(1)]
public sealed partial record Probe
{
    [Field(1)]
    public int Value { get; init; }
}

using System.Buffers.Binary;
using System.IO.Compression;
using Millrace.Compression;
using Millrace.Nbt.Region;

namespace Millrace.Nbt.Tests.Binary;

/// <summary>
/// What refusing a compressed file or chunk costs, measured as the bytes this thread allocates, against 1.25 times the
/// byte quota (<see cref="NbtReaderOptions.MaxBytes"/>, 100 MiB by default) and 1 MiB. Before, output grew by doubling and
/// copying past the quota: a 1 MB gzip bomb made <c>NbtFile.Read</c> allocate 257 MiB, region chunk bombs 224-257 MiB.
/// </summary>
public class DecompressionCostTests
{
    private static readonly long Bound = (NbtReaderConstants.MaxBytes * 5 / 4) + (1 << 20);

    public static TheoryData<string> FileBombs => ["gzip", "gzip whose trailer says 0 bytes", "zlib", "zlib just under the quota"];

    [Theory]
    [MemberData(nameof(FileBombs))]
    public void NbtFileRead_OfABomb_CostsAtMostTheQuotaAndAQuarter(string bomb)
    {
        var over = (int)NbtReaderConstants.MaxBytes + 1;
        var data = bomb switch
        {
            "gzip" => Compress(CompressionCodec.Gzip, over),
            "gzip whose trailer says 0 bytes" => WithTrailerLength(Compress(CompressionCodec.Gzip, over), 0),
            "zlib" => Compress(CompressionCodec.Zlib, over),
            _ => Compress(CompressionCodec.Zlib, over - 2),
        };

        var allocated = Allocated(() => Assert.Throws<NbtFormatException>(() => NbtFile.Read(data)));
        Assert.True(allocated <= Bound, $"{bomb} ({data.Length:N0} bytes): {allocated:N0} bytes allocated, over {Bound:N0}");
    }

    [Theory]
    [InlineData(2)] // zlib
    [InlineData(4)] // LZ4
    public void RegionChunk_ThatIsABomb_CostsAtMostTheQuotaAndAQuarter(byte compression)
    {
        var payload = Compress(compression == 4 ? CompressionCodec.Lz4Block : CompressionCodec.Zlib, (int)NbtReaderConstants.MaxBytes + 1);
        var region = RegionFile.Load(RegionWithOneChunk(compression, payload));

        var allocated = Allocated(() => Assert.Equal(NbtErrorCodes.Compression, Assert.Throws<NbtFormatException>(() => region.ReadChunk(0, 0)).Code));
        Assert.True(allocated <= Bound, $"compression {compression} ({payload.Length:N0} bytes): {allocated:N0} bytes allocated, over {Bound:N0}");
    }

    private static long Allocated(Action action)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        action();
        return GC.GetAllocatedBytesForCurrentThread() - before;
    }

    // Zeros: the best ratio every codec has, and no NBT (a root of type 0 is refused once inflated).
    private static byte[] Compress(CompressionCodec codec, int length)
    {
        using var output = new PooledBufferWriter();
        BoundedCompression.Compress(new byte[length], codec, output, CompressionLevel.Fastest);
        return output.ToArray();
    }

    private static byte[] WithTrailerLength(byte[] gzip, uint length)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(gzip.AsSpan(gzip.Length - 4), length);
        return gzip;
    }

    // A region file whose chunk 0,0 holds the payload: the 8 KiB header, then the chunk's length, compression and bytes.
    private static byte[] RegionWithOneChunk(byte compression, byte[] payload)
    {
        var sectors = (5 + payload.Length + 4095) / 4096;
        var file = new byte[(2 + sectors) * 4096];
        BinaryPrimitives.WriteInt32BigEndian(file, (2 << 8) | sectors);
        BinaryPrimitives.WriteInt32BigEndian(file.AsSpan(8192), payload.Length + 1);
        file[8196] = compression;
        payload.CopyTo(file.AsSpan(8197));
        return file;
    }
}

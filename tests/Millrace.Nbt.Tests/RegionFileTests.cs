using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests;

public class RegionFileTests
{
    [Theory]
    [InlineData(RegionCompression.Gzip)]
    [InlineData(RegionCompression.Zlib)]
    [InlineData(RegionCompression.None)]
    public void Chunks_RoundTripWithEachCompression(RegionCompression compression)
    {
        var region = new RegionFile();
        var when = DateTimeOffset.FromUnixTimeSeconds(1_700_000_000);
        region.WriteChunk(3, 7, NbtSamples.BigTest(), compression, when);
        region.WriteChunk(31, 31, NbtSamples.HelloWorld(), compression, when);
        var bytes = region.ToArray();
        Assert.Equal(0, bytes.Length % 4096);

        var loaded = RegionFile.Load(bytes);
        Assert.Equal([(3, 7), (31, 31)], loaded.Chunks.Select(c => (c.X, c.Z)));
        Assert.All(loaded.Chunks, c => Assert.Equal(compression, c.Compression));
        Assert.All(loaded.Chunks, c => Assert.Equal(when, c.Timestamp));
        Assert.Equal(NbtSamples.BigTest(), loaded.ReadChunk(3, 7));
        Assert.Equal(NbtSamples.HelloWorld(), loaded.ReadChunk(31, 31));
        Assert.Null(loaded.ReadChunk(0, 0));
    }

    [Fact]
    public void Delete_AndRewrite_LeaveNoGaps()
    {
        var region = new RegionFile();
        for (var i = 0; i < 5; i++)
        {
            region.WriteChunk(i, 0, NbtSamples.BigTest(), RegionCompression.None);
        }

        var full = region.ToArray().Length;
        Assert.True(region.DeleteChunk(2, 0));
        Assert.False(region.DeleteChunk(2, 0));
        var compacted = RegionFile.Load(region.ToArray());
        Assert.Equal(full - 4096, region.ToArray().Length);
        Assert.Equal([0, 1, 3, 4], compacted.Chunks.Select(c => c.X));
    }

    [Fact]
    public void OversizedChunks_GoToMccFiles()
    {
        var directory = Directory.CreateTempSubdirectory("millrace-region-");
        try
        {
            var path = Path.Combine(directory.FullName, "r.1.-1.mca");
            var huge = new NbtDocument("", new NbtCompound { { "data", new NbtByteArray(new byte[2_000_000]) } });
            var region = new RegionFile();
            region.WriteChunk(0, 0, huge, RegionCompression.None);
            region.Save(path);
            Assert.True(File.Exists(Path.Combine(directory.FullName, "c.32.-32.mcc")));
            var loaded = RegionFile.Open(path);
            Assert.True(loaded.Chunks.Single().IsExternal);
            Assert.Equal(huge, loaded.ReadChunk(0, 0));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    [Fact]
    public void Lz4_IsAClearError() =>
        Assert.Throws<NotSupportedException>(() => new RegionFile().WriteChunk(0, 0, NbtSamples.HelloWorld(), RegionCompression.Lz4));

    [Fact]
    public void MalformedRegions_RaiseNbtFormatException()
    {
        Assert.Throws<NbtFormatException>(() => RegionFile.Load(new byte[100]));
        var bytes = new byte[8192];
        bytes[2] = 9;
        bytes[3] = 1;
        Assert.Throws<NbtFormatException>(() => RegionFile.Load(bytes));
    }
}

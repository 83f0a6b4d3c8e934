using System.Buffers.Binary;
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Region;

public class RegionFileTests
{
    [Theory]
    [InlineData(RegionCompression.Gzip)]
    [InlineData(RegionCompression.Zlib)]
    [InlineData(RegionCompression.None)]
    [InlineData(RegionCompression.Lz4)]
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

    // An error inside a chunk counted bytes of its payload and said nothing of where that payload is in the file; an
    // unknown compression was at byte 0.
    [Fact]
    public void ErrorsInAChunk_SayWhereItsPayloadStartsInTheFile()
    {
        var region = new RegionFile();
        region.WriteChunk(0, 0, NbtSamples.HelloWorld(), RegionCompression.None);
        var bytes = region.ToArray();
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(8192), BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(8192)) + 2);

        var trailing = Assert.Throws<NbtFormatException>(() => RegionFile.Load(bytes).ReadChunk(0, 0));
        Assert.Equal(NbtErrorCodes.TrailingBytes, trailing.Code);
        Assert.Contains("chunk 0,0's payload, which starts at byte 8197 of the region file", trailing.OffsetScope, StringComparison.Ordinal);

        bytes[8196] = 9;
        var unknown = Assert.Throws<NbtFormatException>(() => RegionFile.Load(bytes).ReadChunk(0, 0));
        Assert.Equal(8196, unknown.ByteOffset);
        Assert.Null(unknown.OffsetScope);
    }

    // A region file not named r.X.Z.mca counted as region 0,0: a backup copy of another region read, and wrote over, the
    // .mcc files of region 0,0's chunk 0,0.
    [Fact]
    public void ARegionFileNamedOtherwise_NeitherReadsNorWritesAnotherRegionsMccFiles()
    {
        var directory = Directory.CreateTempSubdirectory("millrace-region-");
        try
        {
            var huge = new NbtDocument("", new NbtCompound { { "data", new NbtByteArray(new byte[2_000_000]) } });
            var region = new RegionFile();
            region.WriteChunk(0, 0, huge, RegionCompression.None);
            var regionZero = Path.Combine(directory.FullName, "c.0.0.mcc");
            File.WriteAllText(regionZero, "region 0,0's chunk");

            Assert.Throws<ArgumentException>(() => region.Save(Path.Combine(directory.FullName, "backup.mca")));
            Assert.False(File.Exists(Path.Combine(directory.FullName, "backup.mca")));

            region.Save(Path.Combine(directory.FullName, "r.5.5.mca"));
            File.Copy(Path.Combine(directory.FullName, "r.5.5.mca"), Path.Combine(directory.FullName, "copy.mca"));
            var error = Assert.Throws<NbtFormatException>(() => RegionFile.Open(Path.Combine(directory.FullName, "copy.mca")));
            Assert.Equal(8192 + 4, error.ByteOffset);
            Assert.Equal("region 0,0's chunk", File.ReadAllText(regionZero));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    // hello_world.nbt stored as one raw block and the end block, as lz4-java's LZ4BlockOutputStream writes them; the
    // checksum 0x0155E531 is XXH32 (seed 0x9747B28C) of the 33 bytes, low 28 bits, computed independently of the code.
    [Fact]
    public void Lz4_ReadsLz4JavaBlockStream()
    {
        byte[] stream = [
            .. "LZ4Block"u8, 0x16, 33, 0, 0, 0, 33, 0, 0, 0, 0x31, 0xE5, 0x55, 0x01, .. NbtSamples.HelloWorldBytes,
            .. "LZ4Block"u8, 0x16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        Assert.Equal(NbtSamples.HelloWorld(), LoadWithChunk(stream).ReadChunk(0, 0));

        stream[21] ^= 1;
        var error = Assert.Throws<NbtFormatException>(() => LoadWithChunk(stream).ReadChunk(0, 0));
        Assert.Contains("checksum", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Lz4_TruncatedOrOverQuota_RaisesNbtFormatException()
    {
        var region = new RegionFile();
        region.WriteChunk(0, 0, NbtSamples.BigTest(), RegionCompression.Lz4);
        var payload = RegionFile.Load(region.ToArray()).Chunks.Single();
        var bytes = ChunkPayload(region);
        for (var cut = 0; cut < bytes.Length; cut++)
        {
            Assert.Throws<NbtFormatException>(() => LoadWithChunk(bytes[..cut]).ReadChunk(0, 0));
        }

        Assert.Throws<NbtFormatException>(() => LoadWithChunk(bytes).ReadChunk(0, 0, new NbtReaderOptions { MaxBytes = 100 }));
        Assert.Equal(RegionCompression.Lz4, payload.Compression);
    }

    private static byte[] ChunkPayload(RegionFile region)
    {
        var file = region.ToArray();
        var length = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(file.AsSpan(8192));
        return file.AsSpan(8192 + 5, length - 1).ToArray();
    }

    private static RegionFile LoadWithChunk(byte[] payload)
    {
        var sectors = (payload.Length + 5 + 4095) / 4096;
        var file = new byte[8192 + (sectors * 4096)];
        file[0] = 0;
        file[1] = 0;
        file[2] = 2;
        file[3] = (byte)sectors;
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(file.AsSpan(8192), payload.Length + 1);
        file[8192 + 4] = (byte)RegionCompression.Lz4;
        payload.CopyTo(file, 8192 + 5);
        return RegionFile.Load(file);
    }

    [Fact]
    public void MalformedRegions_RaiseNbtFormatException()
    {
        Assert.Throws<NbtFormatException>(() => RegionFile.Load(new byte[100]));
        var bytes = new byte[8192];
        bytes[2] = 9;
        bytes[3] = 1;
        Assert.Throws<NbtFormatException>(() => RegionFile.Load(bytes));
    }

    [Fact]
    public void AChunkWhosePlaceIsDamaged_FailsTheWholeRegion_OrIsLeftOutAndListed_AndSuchARegionIsNotSaved()
    {
        var region = new RegionFile();
        for (var x = 0; x < 3; x++)
        {
            region.WriteChunk(x, 0, new NbtDocument(string.Empty, new NbtCompound { { "x", new NbtInt(x) } }));
        }

        var bytes = region.ToArray();
        // Chunk 1,0's length past its one sector: a file cut or overwritten there.
        var offset = (int)(System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(bytes.AsSpan(4)) >> 8) * 4096;
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(offset), 9_000);

        Assert.Equal(NbtErrorCodes.Region, Assert.Throws<NbtFormatException>(() => RegionFile.Load(bytes)).Code);
        var damaged = new List<RegionChunkError>();
        var salvaged = RegionFile.Load(bytes, damaged: damaged);
        Assert.Equal([(0, 0), (2, 0)], salvaged.Chunks.Select(c => (c.X, c.Z)));
        var error = Assert.Single(damaged);
        Assert.Equal((1, 0, NbtErrorCodes.Region, (long)offset), (error.X, error.Z, error.Error.Code, error.Error.ByteOffset!.Value));
        Assert.Equal(2, ((NbtCompound)salvaged.ReadChunk(2, 0)!.Root).GetValue<int>("x"));
        Assert.Throws<InvalidOperationException>(() => salvaged.ToArray());
    }
}

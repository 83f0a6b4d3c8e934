using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Nbt.Tests.Worlds;

public class FindBlocksTests
{
    public static TheoryData<string, PackedLayout> PaletteRegions() => new()
    {
        { "1.13.2-prismarine/r.-1.-1.mca", PackedLayout.Spanning },
        { "1.14.4-prismarine/r.0.-1.mca", PackedLayout.Spanning },
        { "1.18.1-gomc/r.-1.-1.mca", PackedLayout.Padded },
        { "1.20.1-bluenbt/r.0.0.mca", PackedLayout.Padded },
        { "1.21.1-prismarine/r.0.0.mca", PackedLayout.Padded },
    };

    // Every block of the region's rarest names, found by the library and by the test's own bit reader over the same tags,
    // positions computed here from the section's Y and the chunk's xPos and zPos.
    [SharedDataTheory("worlds")]
    [MemberData(nameof(PaletteRegions))]
    public void EveryBlockOfAName_IsFoundWhereAnIndependentDecoderPutsIt(string file, PackedLayout layout)
    {
        var region = RegionFile.Open(Path.Combine(SharedData.Folder("worlds"), file));
        var chunks = region.Chunks.Select(c => Chunk.Read((NbtCompound)region.ReadChunk(c.X, c.Z)!.Root)).ToList();
        var statistics = new WorldStatistics();
        chunks.ForEach(statistics.Add);
        var names = statistics.Blocks.OrderBy(b => b.Value).ThenBy(b => b.Key, StringComparer.Ordinal).Take(5).Select(b => b.Key).Append("minecraft:no_such_block");
        foreach (var name in names)
        {
            var found = chunks.SelectMany(c => c.FindBlocks(name)).ToList();
            var expected = chunks.SelectMany(c => Reference(c, name, layout)).ToList();
            Assert.Equal(expected, found.Select(b => (b.X, b.Y, b.Z)));
            Assert.Equal(statistics.Blocks.GetValueOrDefault(name), found.Count);
            Assert.All(found, b => Assert.Equal(name, b.State.Name));
            Assert.Equal(found.Count > 0, chunks.Any(c => c.ContainsBlock(name)));
        }
    }

    [SharedDataFact("worlds")]
    public void LegacyIds_AreFoundAsAnIndependentNibbleReaderPlacesThem()
    {
        var region = RegionFile.Open(Path.Combine(SharedData.Folder("worlds"), "1.8-returntowild/r.-1.0.mca"));
        var chunks = region.Chunks.Select(c => Chunk.Read((NbtCompound)region.ReadChunk(c.X, c.Z)!.Root)).ToList();
        foreach (var id in new[] { 56, 54, 1 })
        {
            var found = chunks.SelectMany(c => c.FindBlocks($"legacy:{id}")).ToList();
            var expected = new List<(int, int, int)>();
            foreach (var chunk in chunks)
            {
                foreach (var section in chunk.Sections)
                {
                    var raw = section.Tag.Get<NbtByteArray>("Blocks").Value;
                    var add = section.Tag.TryGet<NbtByteArray>("Add", out var addTag) ? addTag.Value : null;
                    for (var i = 0; i < 4096; i++)
                    {
                        var high = add is null ? 0 : (i % 2 == 0 ? add[i / 2] & 0x0F : add[i / 2] >> 4);
                        if ((raw[i] & 0xFF) + (high * 256) == id)
                        {
                            expected.Add(((chunk.X * 16) + (i % 16), (section.Y * 16) + (i / 256), (chunk.Z * 16) + (i / 16 % 16)));
                        }
                    }
                }
            }

            Assert.NotEmpty(expected);
            Assert.Equal(expected, found.Select(b => (b.X, b.Y, b.Z)));
            Assert.All(found, b => Assert.Equal(b.State, chunks.Single(c => c.X == b.X >> 4 && c.Z == b.Z >> 4).GetBlock(b.X, b.Y, b.Z)));
        }
    }

    private static IEnumerable<(int X, int Y, int Z)> Reference(Chunk chunk, string name, PackedLayout layout)
    {
        foreach (var section in chunk.Sections)
        {
            var tag = section.Tag;
            var modern = tag.TryGet<NbtCompound>("block_states", out var container);
            if (!modern && !tag.Contains("Palette"))
            {
                continue;
            }

            var palette = modern ? container!.Get<NbtList>("palette") : tag.Get<NbtList>("Palette");
            var indices = SectionBlockStatesTests.Reference(tag, layout);
            for (var i = 0; i < 4096; i++)
            {
                if (((NbtCompound)palette[indices[i]]).Get<NbtString>("Name").Value == name)
                {
                    yield return ((chunk.X * 16) + (i % 16), (section.Y * 16) + (i / 256), (chunk.Z * 16) + (i / 16 % 16));
                }
            }
        }
    }
}

public class LegacyBiomesTests
{
    // Before 1.18 a chunk's biomes are one array: bytes in 1.8-1.12, ints from 1.13, a column each before 1.15.
    [SharedDataTheory("worlds")]
    [InlineData("1.8-returntowild/r.-1.0.mca", NbtTagType.ByteArray)]
    [InlineData("1.13.2-prismarine/r.-1.-1.mca", NbtTagType.IntArray)]
    [InlineData("1.14.4-prismarine/r.0.-1.mca", NbtTagType.IntArray)]
    public void EveryChunksBiomes_ReadAsTheirTagHoldsThem_AndAreCountedAsLegacyIds(string file, NbtTagType arrayType)
    {
        var region = RegionFile.Open(Path.Combine(SharedData.Folder("worlds"), file));
        var statistics = new WorldStatistics();
        var expected = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var entry in region.Chunks)
        {
            var root = (NbtCompound)region.ReadChunk(entry.X, entry.Z)!.Root;
            var tag = root.Get<NbtCompound>("Level").Get<NbtTag>("Biomes");
            Assert.Equal(arrayType, tag.Type);
            var raw = tag is NbtByteArray bytes ? bytes.Value.Select(b => (int)b).ToArray() : ((NbtIntArray)tag).Value;
            var chunk = Chunk.Read(root);
            if (raw.Length == 0)
            {
                // What the game writes for a chunk not generated as far as its biomes.
                Assert.Null(chunk.LegacyBiomes);
                statistics.Add(chunk);
                continue;
            }

            var biomes = chunk.LegacyBiomes!;
            Assert.False(biomes.IsCells);
            Assert.Equal(raw, Enumerable.Range(0, biomes.Count).Select(i => biomes[i]));
            statistics.Add(chunk);
            foreach (var id in raw)
            {
                expected["legacy:" + id] = expected.GetValueOrDefault("legacy:" + id) + 1;
            }
        }

        Assert.Equal(expected.OrderBy(e => e.Key, StringComparer.Ordinal), statistics.Biomes.OrderBy(e => e.Key, StringComparer.Ordinal));
        Assert.Equal(expected.Values.Sum(), statistics.Biomes.Values.Sum());
        Assert.Equal(0, statistics.Biomes.Values.Sum() % ChunkBiomeIds.ColumnCount);
    }

    [Fact]
    public void From1_15_AnEntryIsACell_AndALengthTheGameDoesNotWrite_IsRefused()
    {
        static Chunk With(NbtTag biomes) => Chunk.Read(new NbtCompound { { "DataVersion", new NbtInt(2230) }, { "Level", new NbtCompound { { "xPos", new NbtInt(0) }, { "zPos", new NbtInt(0) }, { "Biomes", biomes } } } });

        var cells = With(new NbtIntArray(Enumerable.Range(0, 1024).Select(i => i % 3).ToArray())).LegacyBiomes!;
        Assert.True(cells.IsCells);
        Assert.Equal((1024, 2), (cells.Count, cells[1022]));
        var error = Assert.Throws<MillraceException>(() => With(new NbtIntArray(new int[300])).LegacyBiomes).Error;
        Assert.Equal((NbtErrorCodes.World, "Level.Biomes"), (error.Code, error.Path));
        Assert.Throws<MillraceException>(() => With(new NbtByteArray(new byte[1024])).LegacyBiomes);
        Assert.Throws<MillraceException>(() => With(new NbtString("plains")).LegacyBiomes);
        Assert.Null(Chunk.Read(new NbtCompound { { "DataVersion", new NbtInt(3955) }, { "xPos", new NbtInt(0) }, { "zPos", new NbtInt(0) } }).LegacyBiomes);
    }
}

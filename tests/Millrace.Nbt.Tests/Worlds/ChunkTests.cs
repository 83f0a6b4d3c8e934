using System.Text.RegularExpressions;
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Nbt.Tests.Worlds;

public partial class ChunkTests
{
    // Every file of ../shared/data/worlds: its chunks and the sections with blocks SOURCES.md counts in it.
    public static TheoryData<string, int, int> RealRegions() => new()
    {
        { "1.8-returntowild/r.-1.0.mca", 597, 3_106 },
        { "1.13.2-prismarine/r.-1.-1.mca", 189, 962 },
        { "1.14.4-prismarine/r.0.-1.mca", 299, 4_784 },
        { "1.18.1-gomc/r.-1.-1.mca", 161, 3_864 },
        { "1.20.1-bluenbt/r.0.0.mca", 633, 15_192 },
        { "1.21.1-prismarine/r.0.0.mca", 225, 5_400 },
    };

    [SharedDataTheory("worlds")]
    [MemberData(nameof(RealRegions))]
    public void EveryChunkTheGameWrote_ReadsAtItsPosition_WithEveryBlockAsItsSectionHasIt(string file, int chunks, int sectionsWithBlocks)
    {
        var name = RegionName().Match(Path.GetFileName(file));
        var (regionX, regionZ) = (int.Parse(name.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), int.Parse(name.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture));
        var region = RegionFile.Open(Path.Combine(SharedData.Folder("worlds"), file));
        var (read, withBlocks) = (0, 0);
        foreach (var entry in region.Chunks)
        {
            var document = region.ReadChunk(entry.X, entry.Z)!;
            var before = document.ToArray();
            var chunk = Chunk.Read((NbtCompound)document.Root);
            read++;
            Assert.Equal((regionX * 32) + entry.X, chunk.X);
            Assert.Equal((regionZ * 32) + entry.Z, chunk.Z);
            Assert.True(chunk.InhabitedTime >= 0 && chunk.LastUpdate >= 0);
            Assert.Equal(chunk.DataVersion is null or < 1451, chunk.Status is null);

            foreach (var section in chunk.Sections)
            {
                if (section.BlockStates is null && section.BlockIds is null)
                {
                    continue;
                }

                withBlocks++;
                Assert.False(section.BlockStates is not null && section.BlockIds is not null);
                Assert.Same(section, chunk.SectionAt(section.Y));
                var (x, y, z) = (withBlocks % 16, (withBlocks * 7) % 16, (withBlocks * 3) % 16);
                var expected = section.BlockStates?[x, y, z] ?? section.BlockIds![x, y, z];
                Assert.Equal(expected, chunk.GetBlock((chunk.X * 16) + x, (section.Y * 16) + y, (chunk.Z * 16) + z));
                if (section.Biomes is { } biomes)
                {
                    Assert.Contains(biomes[x / 4, y / 4, z / 4], biomes.Palette);
                }
            }

            Assert.Equal(before, document.ToArray());
        }

        Assert.Equal(chunks, read);
        Assert.Equal(sectionsWithBlocks, withBlocks);
    }

    [SharedDataTheory("worlds")]
    [MemberData(nameof(RealRegions))]
    public void Statistics_CountEveryBlockOfEverySection_AndMergeAsOneCount(string file, int chunks, int sectionsWithBlocks)
    {
        var region = RegionFile.Open(Path.Combine(SharedData.Folder("worlds"), file));
        var (whole, first, second) = (new WorldStatistics(), new WorldStatistics(), new WorldStatistics());
        var biomeSections = 0;
        var legacyBiomes = 0L;
        var index = 0;
        foreach (var entry in region.Chunks)
        {
            var chunk = Chunk.Read((NbtCompound)region.ReadChunk(entry.X, entry.Z)!.Root);
            whole.Add(chunk);
            (index++ % 2 == 0 ? first : second).Add(chunk);
            biomeSections += chunk.Sections.Count(s => s.Biomes is not null);
            legacyBiomes += chunk.LegacyBiomes?.Count ?? 0;
        }

        first.Add(second);
        Assert.Equal(chunks, whole.Chunks);
        Assert.Equal(sectionsWithBlocks, whole.Sections);
        Assert.Equal(sectionsWithBlocks * 4096L, whole.Blocks.Values.Sum());
        Assert.Equal((biomeSections * 64L) + legacyBiomes, whole.Biomes.Values.Sum());
        Assert.Equal(whole.Blocks.OrderBy(b => b.Key), first.Blocks.OrderBy(b => b.Key));
        Assert.Equal(whole.Biomes.OrderBy(b => b.Key), first.Biomes.OrderBy(b => b.Key));
        Assert.All(whole.Blocks.Keys, name => Assert.DoesNotContain('[', name));
    }

    [SharedDataFact("worlds")]
    public void LegacySections_ReadAsAnIndependentNibbleReaderReadsThem()
    {
        var region = RegionFile.Open(Path.Combine(SharedData.Folder("worlds"), "1.8-returntowild/r.-1.0.mca"));
        var ids = new int[SectionBlockIds.BlockCount];
        var counts = new int[SectionBlockIds.MaxId + 1];
        var checkedSections = 0;
        foreach (var entry in region.Chunks.Take(40))
        {
            var chunk = Chunk.Read((NbtCompound)region.ReadChunk(entry.X, entry.Z)!.Root);
            Assert.Null(chunk.DataVersion);
            foreach (var section in chunk.Sections)
            {
                var blocks = section.BlockIds!;
                blocks.CopyIdsTo(ids);
                var raw = section.Tag.Get<NbtByteArray>("Blocks").Value;
                var add = section.Tag.TryGet<NbtByteArray>("Add", out var addTag) ? addTag.Value : null;
                var data = section.Tag.Get<NbtByteArray>("Data").Value;
                for (var i = 0; i < 4096; i++)
                {
                    var high = add is null ? 0 : (i % 2 == 0 ? add[i / 2] & 0x0F : add[i / 2] >> 4);
                    Assert.Equal((raw[i] & 0xFF) + (high * 256), ids[i]);
                    var (x, y, z) = (i % 16, i / 256, (i / 16) % 16);
                    Assert.Equal(i % 2 == 0 ? data[i / 2] & 0x0F : data[i / 2] >> 4, blocks.DataAt(x, y, z));
                }

                blocks.CountIds(counts);
                Assert.Equal(Enumerable.Range(0, counts.Length).Select(id => ids.Count(i => i == id)), counts);

                checkedSections++;
            }
        }

        Assert.True(checkedSections > 100, $"{checkedSections} sections checked");
    }

    [Fact]
    public void ALegacyBlock_IsSetByItsId_AndAnIdPast255AddsTheAddArray()
    {
        var section = new NbtCompound { { "Y", new NbtByte(4) }, { "Blocks", new NbtByteArray(new byte[4096]) }, { "Data", new NbtByteArray(new byte[2048]) } };
        var chunk = Chunk.Read(new NbtCompound { { "Level", new NbtCompound { { "xPos", new NbtInt(-1) }, { "zPos", new NbtInt(2) }, { "Sections", new NbtList([section]) } } } });
        chunk.SetBlock(-16, 65, 47, new BlockState("legacy:35", [new("data", "14")]));
        Assert.Equal("legacy:35[data=14]", chunk.GetBlock(-16, 65, 47)!.ToString());
        Assert.False(section.Contains("Add"));

        chunk.SetBlock(-1, 79, 32, new BlockState("legacy:300"));
        Assert.Equal("legacy:300[data=0]", chunk.GetBlock(-1, 79, 32)!.ToString());
        var counts = new int[SectionBlockIds.MaxId + 1];
        section.Get<NbtByteArray>("Blocks").Value.AsSpan(0, 8).Fill(35);
        chunk.Sections[0].BlockIds!.CountIds(counts);
        Assert.Equal((4086, 9, 1), (counts[0], counts[35], counts[300]));
        Assert.Equal(2048, section.Get<NbtByteArray>("Add").Value.Length);
        Assert.Equal("legacy:35[data=14]", chunk.GetBlock(-16, 65, 47)!.ToString());

        Assert.Throws<ArgumentException>(() => chunk.SetBlock(-16, 65, 47, new BlockState("minecraft:stone")));
        Assert.Throws<ArgumentOutOfRangeException>(() => chunk.GetBlock(0, 65, 47));
        Assert.Null(chunk.GetBlock(-16, 0, 47));
        Assert.Throws<InvalidOperationException>(() => chunk.SetBlock(-16, 0, 47, new BlockState("legacy:1")));
    }

    [Fact]
    public void AModernChunk_SetsABlockAndABiome_InTheRightSection()
    {
        var sections = new NbtList(Enumerable.Range(-4, 3).Select(y => (NbtTag)new NbtCompound
        {
            { "Y", new NbtByte((sbyte)y) },
            { "block_states", new NbtCompound { { "palette", new NbtList([new BlockState("minecraft:stone").ToCompound()]) } } },
            { "biomes", new NbtCompound { { "palette", new NbtList([new NbtString("minecraft:plains")]) } } },
        }));
        var root = new NbtCompound { { "DataVersion", new NbtInt(3955) }, { "xPos", new NbtInt(3) }, { "zPos", new NbtInt(-2) }, { "Status", new NbtString("minecraft:full") }, { "sections", sections } };
        var chunk = Chunk.Read(root);
        Assert.Equal([-4, -3, -2], chunk.Sections.Select(s => s.Y));
        Assert.Equal("minecraft:full", chunk.Status);

        chunk.SetBlock(48, -60, -32, new BlockState("minecraft:diamond_ore"));
        Assert.Equal(new BlockState("minecraft:diamond_ore"), chunk.GetBlock(48, -60, -32));
        Assert.Equal(new BlockState("minecraft:stone"), chunk.GetBlock(49, -60, -32));
        Assert.Equal(2, chunk.SectionAt(-4)!.BlockStates!.Palette.Count);

        var biomes = chunk.SectionAt(-3)!.Biomes!;
        biomes.Set(1, 2, 3, "minecraft:desert");
        Assert.Equal(["minecraft:plains", "minecraft:desert"], biomes.Palette);
        Assert.Single(((NbtCompound)((NbtCompound)sections[1])["biomes"]).Get<NbtLongArray>("data").Value);
        Assert.Equal("minecraft:desert", SectionBiomes.Read((NbtCompound)sections[1])![1, 2, 3]);
        biomes.Set(1, 2, 3, "minecraft:plains");
        Assert.False(((NbtCompound)((NbtCompound)sections[1])["biomes"]).Contains("data"));
    }

    [Fact]
    public void ABadSection_IsRefused_WithItsPathFromTheChunksRoot()
    {
        var section = new NbtCompound { { "Y", new NbtByte(0) }, { "block_states", new NbtCompound { { "palette", new NbtList([new BlockState("a").ToCompound(), new BlockState("b").ToCompound()]) }, { "data", new NbtLongArray(new long[3]) } } } };
        var chunk = Chunk.Read(new NbtCompound { { "DataVersion", new NbtInt(3955) }, { "xPos", new NbtInt(0) }, { "zPos", new NbtInt(0) }, { "sections", new NbtList([section]) } });
        var error = Assert.Throws<MillraceException>(() => chunk.GetBlock(0, 0, 0)).Error;
        Assert.Equal(NbtErrorCodes.World, error.Code);
        Assert.Equal("sections[0].block_states.data", error.Path);

        var noLevel = Assert.Throws<MillraceException>(() => Chunk.Read(new NbtCompound { { "DataVersion", new NbtInt(1631) } })).Error;
        Assert.Equal("Level", noLevel.Path);
        var twice = new NbtList([new NbtCompound { { "Y", new NbtByte(1) } }, new NbtCompound { { "Y", new NbtByte(1) } }]);
        Assert.Equal("sections", Assert.Throws<MillraceException>(() => Chunk.Read(new NbtCompound { { "DataVersion", new NbtInt(3955) }, { "xPos", new NbtInt(0) }, { "zPos", new NbtInt(0) }, { "sections", twice } })).Error.Path);
    }

    [GeneratedRegex(@"^r\.(-?\d+)\.(-?\d+)\.mca$")]
    private static partial Regex RegionName();
}

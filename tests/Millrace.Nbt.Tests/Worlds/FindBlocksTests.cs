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

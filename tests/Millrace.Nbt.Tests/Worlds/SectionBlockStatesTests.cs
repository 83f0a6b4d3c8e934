using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Nbt.Tests.Worlds;

public class SectionBlockStatesTests
{
    // The files of ../shared/data/worlds with palettes, the layout their version wrote, and the sections with block states
    // that SOURCES.md counts in them.
    public static TheoryData<string, PackedLayout, int> RealRegions() => new()
    {
        { "1.13.2-prismarine/r.-1.-1.mca", PackedLayout.Spanning, 962 },
        { "1.14.4-prismarine/r.0.-1.mca", PackedLayout.Spanning, 4_784 },
        { "1.18.1-gomc/r.-1.-1.mca", PackedLayout.Padded, 3_864 },
        { "1.20.1-bluenbt/r.0.0.mca", PackedLayout.Padded, 15_192 },
        { "1.21.1-prismarine/r.0.0.mca", PackedLayout.Padded, 5_400 },
    };

    [SharedDataTheory("worlds")]
    [MemberData(nameof(RealRegions))]
    public void EverySectionTheGameWrote_ReadsAsAnIndependentDecoderReadsIt_AndStaysTheSameBytes(string file, PackedLayout layout, int sections)
    {
        var region = RegionFile.Open(Path.Combine(SharedData.Folder("worlds"), file));
        var read = 0;
        var indices = new int[SectionBlockStates.BlockCount];
        foreach (var chunk in region.Chunks)
        {
            var document = region.ReadChunk(chunk.X, chunk.Z)!;
            var before = document.ToArray();
            var root = (NbtCompound)document.Root;
            var dataVersion = root.GetValue<int>("DataVersion");
            var list = root.TryGet<NbtList>("sections", out var modern) ? modern : root.Get<NbtCompound>("Level").Get<NbtList>("Sections");
            foreach (NbtCompound section in list)
            {
                if (SectionBlockStates.Read(section, dataVersion) is not { } blocks)
                {
                    continue;
                }

                read++;
                Assert.Equal(layout, blocks.Layout);
                blocks.CopyIndicesTo(indices);
                var reference = Reference(section, layout);
                Assert.Equal(reference, indices);
                var counts = new int[blocks.Palette.Count];
                blocks.CountEntries(counts);
                Assert.Equal(Enumerable.Range(0, counts.Length).Select(entry => reference.Count(index => index == entry)), counts);
                if (SectionBiomes.Read(section) is { } biomes)
                {
                    var cells = new int[SectionBiomes.CellCount];
                    biomes.CopyIndicesTo(cells);
                    var perBiome = new int[biomes.Palette.Count];
                    biomes.CountEntries(perBiome);
                    Assert.Equal(Enumerable.Range(0, perBiome.Length).Select(entry => cells.Count(index => index == entry)), perBiome);
                }
                var (x, y, z) = (read % 16, (read / 16) % 16, (read / 256) % 16);
                Assert.Same(blocks.Palette[indices[(((y * 16) + z) * 16) + x]], blocks[x, y, z]);
            }

            Assert.Equal(before, document.ToArray());
        }

        Assert.Equal(sections, read);
    }

    [Fact]
    public void AModernSection_GrowsFrom1To17Entries_AndBackTo1_AsTheGameWritesIt()
    {
        var container = new NbtCompound { { "palette", new NbtList([new BlockState("minecraft:air").ToCompound()]) } };
        var section = new NbtCompound { { "Y", new NbtByte(0) }, { "block_states", container } };
        var blocks = SectionBlockStates.Read(section, 3955)!;
        Assert.False(container.Contains("data"));

        for (var i = 1; i <= 16; i++)
        {
            blocks.Set(i % 16, i / 16, 0, Stone(i));
            var bits = i + 1 <= 16 ? 4 : 5;
            Assert.Equal(i + 1, container.Get<NbtList>("palette").Count);
            Assert.Equal(PackedIndices.LongCount(4096, bits, PackedLayout.Padded), container.Get<NbtLongArray>("data").Value.Length);
        }

        Assert.Equal(342, container.Get<NbtLongArray>("data").Value.Length);
        Assert.Equal(Stone(16), blocks[0, 1, 0]);
        Assert.Equal(Stone(16), SectionBlockStates.Read(section, 3955)![0, 1, 0]);
        var counts = new int[17];
        blocks.CountEntries(counts);
        Assert.Equal([4080, .. Enumerable.Repeat(1, 16)], counts);
        SectionBlockStates.Read(section, 3955)!.CountEntries(counts);
        Assert.Equal([4080, .. Enumerable.Repeat(1, 16)], counts);
        Assert.Equal(Reference(section, PackedLayout.Padded), Indices(blocks));

        // Every block back to air, one by one: the palette compacts as blocks stop using entries, in first-use order.
        for (var i = 1; i <= 16; i++)
        {
            blocks.Set(i % 16, i / 16, 0, new BlockState("minecraft:air"));
            Assert.Equal(17 - i, container.Get<NbtList>("palette").Count);
        }

        Assert.False(container.Contains("data"));
        Assert.Equal(new BlockState("minecraft:air"), Assert.Single(blocks.Palette));
    }

    [Fact]
    public void ASection_Of1_13_GrowsPast16Entries_InTheSpanningLayout_AndIsWrittenAsTheGameWritesIt()
    {
        // Air and 15 states, block i using entry i % 16, plus an entry no block uses (as 1.13-1.17 files have).
        var entries = new[] { new BlockState("minecraft:air") }.Concat(Enumerable.Range(1, 15).Select(Stone)).Append(Stone(99)).ToList();
        var packed = new long[PackedIndices.LongCount(4096, 5, PackedLayout.Spanning)];
        PackedIndices.Pack(Enumerable.Range(0, 4096).Select(i => i % 16).ToArray(), 5, PackedLayout.Spanning, packed);
        var section = new NbtCompound { { "Y", new NbtByte(2) }, { "Palette", new NbtList(entries.Select(e => (NbtTag)e.ToCompound())) }, { "BlockStates", new NbtLongArray(packed) } };
        var blocks = SectionBlockStates.Read(section, 1631)!;
        Assert.Equal(PackedLayout.Spanning, blocks.Layout);
        Assert.Equal(17, blocks.Palette.Count);

        // A new state: the unused entry goes, the new one comes last, 17 entries take 5 bits.
        blocks.Set(0, 0, 1, Stone(16));
        Assert.Equal(entries.Take(16).Append(Stone(16)), blocks.Palette);
        Assert.Equal(320, section.Get<NbtLongArray>("BlockStates").Value.Length);
        Assert.Equal(16, Reference(section, PackedLayout.Spanning)[16]);

        // Back to air: 16 entries, 4 bits; air stays first even where no block is air.
        blocks.Set(0, 0, 1, new BlockState("minecraft:air"));
        Assert.Equal(entries.Take(16), blocks.Palette);
        Assert.Equal(256, section.Get<NbtLongArray>("BlockStates").Value.Length);
        Assert.Equal(Enumerable.Range(0, 4096).Select(i => i % 16), Reference(section, PackedLayout.Spanning));
        for (var i = 0; i < 4096; i += 16)
        {
            blocks.Set(i & 15, i >> 8, (i >> 4) & 15, Stone(1));
        }

        Assert.Equal(new BlockState("minecraft:air"), blocks.Palette[0]);
        Assert.DoesNotContain(blocks.Palette.Skip(1), state => state.Name == "minecraft:air");
    }

    [Fact]
    public void AViewWhoseTagsWereReplaced_RefusesToWriteOverThem()
    {
        var container = new NbtCompound { { "palette", new NbtList([new BlockState("minecraft:air").ToCompound()]) } };
        var section = new NbtCompound { { "block_states", container } };
        var blocks = SectionBlockStates.Read(section, 3955)!;
        container["palette"] = new NbtList([new BlockState("minecraft:stone").ToCompound()]);
        Assert.Throws<InvalidOperationException>(() => blocks.Set(0, 0, 0, new BlockState("minecraft:dirt")));
        Assert.Equal("minecraft:stone", SectionBlockStates.Read(section, 3955)![0, 0, 0].Name);
    }

    [Fact]
    public void BlockState_PrintsAsCommandsDo_AndEqualsWhateverThePropertiesOrder()
    {
        var state = BlockState.FromCompound(new NbtCompound
        {
            { "Name", new NbtString("minecraft:oak_stairs") },
            { "Properties", new NbtCompound { { "waterlogged", new NbtString("false") }, { "facing", new NbtString("east") }, { "half", new NbtString("top") } } },
        });
        Assert.Equal("minecraft:oak_stairs[facing=east,half=top,waterlogged=false]", state.ToString());
        Assert.Equal(new BlockState("minecraft:oak_stairs", [new("half", "top"), new("facing", "east"), new("waterlogged", "false")]), state);
        Assert.Equal("minecraft:air", new BlockState("minecraft:air").ToString());
    }

    [Theory]
    [InlineData("minecraft:stone", "minecraft:stone")]
    [InlineData("minecraft:stone[]", "minecraft:stone")]
    [InlineData("oak_stairs[waterlogged=false,facing=east]", "oak_stairs[facing=east,waterlogged=false]")]
    [InlineData("legacy:35[data=14]", "legacy:35[data=14]")]
    public void Parse_ReadsWhatToStringWrites(string text, string printed)
    {
        var state = BlockState.Parse(text);
        Assert.Equal(printed, state.ToString());
        Assert.Equal(state, BlockState.Parse(state.ToString()));
    }

    [Theory]
    [InlineData("")]
    [InlineData("[a=b]")]
    [InlineData("stone[")]
    [InlineData("stone[a]")]
    [InlineData("stone[a=]")]
    [InlineData("stone[=b]")]
    [InlineData("stone[a=b,a=c]")]
    [InlineData("stone[a=b,]")]
    [InlineData("st one")]
    [InlineData("stone[a=b]x")]
    public void Parse_RefusesWhatIsNotAState(string text) => Assert.Throws<FormatException>(() => BlockState.Parse(text));

    public static TheoryData<string, NbtCompound, string> Refused() => new()
    {
        { "an index past the palette", Modern(2, data: Fill(256, 0x1F)), "block_states.data" },
        { "a wrong length", Modern(2, data: new long[257]), "block_states.data" },
        { "data beside one entry", Modern(1, data: new long[256]), "block_states.data" },
        { "no data for two entries", Modern(2, data: null), "block_states.data" },
        { "an entry without a name", new NbtCompound { { "block_states", new NbtCompound { { "palette", new NbtList([new NbtCompound()]) } } } }, "block_states.palette[0].Name" },
        {
            "a property that is not a string",
            new NbtCompound { { "block_states", new NbtCompound { { "palette", new NbtList([new NbtCompound { { "Name", new NbtString("a") }, { "Properties", new NbtCompound { { "age", new NbtInt(1) } } } }]) } } } },
            "block_states.palette[0].Properties.age"
        },
        { "an empty palette", new NbtCompound { { "block_states", new NbtCompound { { "palette", new NbtList() } } } }, "block_states.palette" },
        { "a state listed twice", WithPalette([new BlockState("a").ToCompound(), new BlockState("a").ToCompound()], new long[256]), "block_states.palette[1]" },
        {
            "an empty property name",
            WithPalette([new NbtCompound { { "Name", new NbtString("a") }, { "Properties", new NbtCompound { { "", new NbtString("1") } } } }], null),
            "block_states.palette[0].Properties['']"
        },
        { "an entry that is not a compound", WithPalette([new BlockState("a").ToCompound(), new NbtString("b")], new long[256]), "block_states.palette[1]" },
    };

    // An index past the palette is named by its entry and value wherever it is: first, in the middle, or in the padded
    // layout's tail past the last whole long; in either layout.
    [Theory]
    [InlineData(0, PackedLayout.Padded, 4)]
    [InlineData(2_000, PackedLayout.Padded, 4)]
    [InlineData(2_000, PackedLayout.Padded, 5)]
    [InlineData(4_095, PackedLayout.Padded, 5)]
    [InlineData(4_095, PackedLayout.Spanning, 5)]
    public void AnIndexPastThePalette_IsNamedByItsEntry(int entry, PackedLayout layout, int bits)
    {
        var palette = (1 << (bits - 1)) + 1;
        var indices = new int[SectionBlockStates.BlockCount];
        indices[entry] = palette;
        var data = new long[PackedIndices.LongCount(indices.Length, bits, layout)];
        PackedIndices.Pack(indices, bits, layout, data);
        var section = layout == PackedLayout.Padded
            ? Modern(palette, data)
            : new NbtCompound { { "Palette", new NbtList([new BlockState("minecraft:air").ToCompound(), .. Enumerable.Range(1, palette - 1).Select(i => (NbtTag)Stone(i).ToCompound())]) }, { "BlockStates", new NbtLongArray(data) } };
        var error = Assert.Throws<MillraceException>(() => SectionBlockStates.Read(section, layout == PackedLayout.Padded ? 3955 : 1631)).Error;
        Assert.Equal($"Entry {entry} has palette index {palette}; the palette has {palette} entries.", error.Message);
    }

    [Theory]
    [MemberData(nameof(Refused))]
    public void WhatTheGameDoesNotWrite_IsRefused_WithItsPath(string what, NbtCompound section, string path)
    {
        _ = what;
        var error = Assert.Throws<MillraceException>(() => SectionBlockStates.Read(section, 3955)).Error;
        Assert.Equal(NbtErrorCodes.World, error.Code);
        Assert.Equal(path, error.Path);
    }

    private static NbtCompound Modern(int entries, long[]? data)
    {
        var container = new NbtCompound { { "palette", new NbtList(Enumerable.Range(0, entries).Select(i => (NbtTag)Stone(i).ToCompound())) } };
        if (data is not null)
        {
            container.Add("data", new NbtLongArray(data));
        }

        return new NbtCompound { { "block_states", container } };
    }

    private static NbtCompound WithPalette(NbtTag[] entries, long[]? data)
    {
        var palette = NbtList.WithMixedTypes();
        foreach (var entry in entries)
        {
            palette.Add(entry);
        }

        var container = new NbtCompound { { "palette", palette } };
        if (data is not null)
        {
            container.Add("data", new NbtLongArray(data));
        }

        return new NbtCompound { { "block_states", container } };
    }

    private static long[] Fill(int length, long value) => Enumerable.Repeat(value, length).ToArray();

    private static BlockState Stone(int i) => new("minecraft:stone", [new("n", i.ToString(System.Globalization.CultureInfo.InvariantCulture))]);

    private static int[] Indices(SectionBlockStates blocks)
    {
        var indices = new int[SectionBlockStates.BlockCount];
        blocks.CopyIndicesTo(indices);
        return indices;
    }

    // The section's indices read from its tags by the test's own bit reader, the width from the palette's size.
    internal static int[] Reference(NbtCompound section, PackedLayout layout)
    {
        var modern = section.TryGet<NbtCompound>("block_states", out var container);
        var palette = modern ? container!.Get<NbtList>("palette") : section.Get<NbtList>("Palette");
        if (modern && palette.Count == 1)
        {
            return new int[4096];
        }

        var bits = 4;
        while ((1 << bits) < palette.Count)
        {
            bits++;
        }

        var data = modern ? container!.Get<NbtLongArray>("data").Value : section.Get<NbtLongArray>("BlockStates").Value;
        return PackedIndicesTests.ReferenceUnpack(data, bits, layout, 4096);
    }
}

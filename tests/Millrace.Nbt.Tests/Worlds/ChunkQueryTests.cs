using System.Text;
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Nbt.Tests.Worlds;

public class ChunkQueryTests
{
    private static readonly DateTimeOffset Saved = DateTimeOffset.FromUnixTimeSeconds(1_700_000_000); // 2023-11-14T22:13:20Z

    // The chunk every query below is put to: chunk (3, -2), 5 minutes inhabited, last updated at tick 100, DataVersion
    // 3465, fully generated, stone with one chest; its palette also lists diamond ore, which no block uses.
    private static readonly Chunk Subject = Chunk.Read(ChunkRoot(3, -2, inhabited: 6_000, lastUpdate: 100, dataVersion: 3465, "minecraft:full"));

    public static TheoryData<string, bool> Queries() => new()
    {
        { "InhabitedTime < 5m", false },
        { "InhabitedTime <= 5m", true },
        { "InhabitedTime = 6000", true },
        { "InhabitedTime != 6000t", false },
        { "InhabitedTime > 4m59s", true },
        { "inhabitedtime >= 300s", true },
        { "InhabitedTime < 1h30m", true },
        { "InhabitedTime < 1d", true },
        { "LastUpdate > 5s", false },
        { "LastUpdate >= 5s", true },
        { "DataVersion < 3465", false },
        { "DataVersion >= 3465", true },
        { "Status = full", true },
        { "Status = minecraft:full", true },
        { "Status == \"minecraft:full\"", true },
        { "Status != features", true },
        { "x = 3 and z = -2", true },
        { "x=3", true },
        { "x in 0..3", true },
        { "x in 4..10", false },
        { "xPos in -5..5 and zPos in -2..-2", true },
        { "contains minecraft:chest", true },
        { "contains chest, stone", true },
        { "contains chest, diamond_ore", false },
        { "contains minecraft:diamond_ore", false },
        { "not contains chest", false },
        { "NOT x = 3", false },
        { "not (x = 3) or z = -2", true },
        { "x = 1 or x = 3 and z = 5", false },
        { "(x = 1 or x = 3) and z = -2", true },
        { "not not x = 3", true },
        { "Timestamp = 1700000000", true },
        { "Timestamp > 2023-01-01", true },
        { "Timestamp < 2023-11-14T22:13:20", false },
        { "Timestamp = \"2023-11-14 22:13:20\"", true },
        { "Timestamp = 2023-11-14T22:13:20Z", true },
    };

    [Theory]
    [MemberData(nameof(Queries))]
    public void AQuery_MatchesAsItsGrammarSays(string text, bool matches)
    {
        var query = ChunkQuery.Parse(text);
        Assert.Equal(matches, query.Matches(Subject, Saved));
        Assert.Equal(text, query.ToString());
        if (!query.RequiresChunkData)
        {
            Assert.Equal(matches, query.Matches(Subject.X, Subject.Z, Saved));
        }
    }

    [Theory]
    [InlineData("x in 0..3 and Timestamp > 0", false)]
    [InlineData("not (x = 1 or z = 2)", false)]
    [InlineData("x = 1 or contains stone", true)]
    [InlineData("x = 1 and Status = full", true)]
    [InlineData("InhabitedTime < 5m", true)]
    public void OnlyAQueryOnTheHeader_DecidesWithoutTheChunk(string text, bool requiresChunk)
    {
        var query = ChunkQuery.Parse(text);
        Assert.Equal(requiresChunk, query.RequiresChunkData);
        if (requiresChunk)
        {
            Assert.Throws<InvalidOperationException>(() => query.Matches(0, 0, Saved));
        }
    }

    [Fact]
    public void AChunkSavedBefore1_13_HasNoStatus_AndCountsAsDataVersion0_WhenItHasNone()
    {
        var root = new NbtCompound { { "Level", new NbtCompound { { "xPos", new NbtInt(0) }, { "zPos", new NbtInt(0) } } } };
        var chunk = Chunk.Read(root);
        Assert.True(ChunkQuery.Parse("Status != full and DataVersion = 0 and InhabitedTime = 0").Matches(chunk, Saved));
        Assert.False(ChunkQuery.Parse("Status = full").Matches(chunk, Saved));
    }

    public static TheoryData<string, int, string> BadQueries() => new()
    {
        { "", 0, "empty" },
        { "   ", 3, "empty" },
        { "InhabitedTime <", 15, "Expected a value" },
        { "Foo < 3", 0, "is not a field" },
        { "x in 5..1", 5, "A..B" },
        { "x in 5", 5, "A..B" },
        { "DataVersion in 1..2", 12, "Only x and z" },
        { "(x = 1", 6, "Expected ')'" },
        { "x = 1 )", 6, "Expected 'and', 'or'" },
        { "x = 1 and", 9, "Expected a condition" },
        { "x 1", 2, "Expected a comparison" },
        { "x ! 1", 2, "is not a comparison" },
        { "Status < full", 7, "= or !=" },
        { "InhabitedTime < 5y", 16, "duration" },
        { "InhabitedTime < m5", 16, "duration" },
        { "InhabitedTime < 99999999999999999d", 16, "longer than" },
        { "x = 3000000000", 4, "whole number" },
        { "x = \"3\"", 4, "whole number" },
        { "contains", 8, "block name" },
        { "contains chest,", 15, "block name" },
        { "x = \"1", 4, "not closed" },
        { "Status = \"a\\b\"", 11, "backslash" },
        { "Timestamp > yesterday", 12, "seconds since 1970" },
        { "Status = é and Foo = 1", 16, "is not a field" },
    };

    [Theory]
    [MemberData(nameof(BadQueries))]
    public void ABadQuery_IsRefused_AtTheByteWhereItStopsMakingSense(string text, int offset, string reason)
    {
        var exception = Assert.Throws<NbtFormatException>(() => ChunkQuery.Parse(text));
        Assert.Equal(NbtErrorCodes.Query, exception.Code);
        Assert.Equal(offset, exception.ByteOffset);
        Assert.Contains(reason, exception.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void NestingIsBounded_SoNoQueryOverflowsTheStack()
    {
        var deepest = string.Concat(Enumerable.Repeat("not ", ChunkQuery.MaxDepth)) + "x = 3";
        Assert.True(ChunkQuery.Parse(deepest).Matches(Subject, Saved));
        var tooDeep = new StringBuilder().Insert(0, "(", ChunkQuery.MaxDepth + 1).Append("x = 3").Append(')', ChunkQuery.MaxDepth + 1).ToString();
        var exception = Assert.Throws<NbtFormatException>(() => ChunkQuery.Parse(tooDeep));
        Assert.Equal(ChunkQuery.MaxDepth, exception.ByteOffset);
        Assert.Throws<NbtFormatException>(() => ChunkQuery.Parse(new string('(', 100_000)));
    }

    public static TheoryData<string> RealRegions() => ["1.8-returntowild/r.-1.0.mca", "1.13.2-prismarine/r.-1.-1.mca", "1.14.4-prismarine/r.0.-1.mca", "1.18.1-gomc/r.-1.-1.mca", "1.20.1-bluenbt/r.0.0.mca", "1.21.1-prismarine/r.0.0.mca"];

    // What the query selects in a file the game wrote, against the same decision made from the chunk's tags directly.
    [SharedDataTheory("worlds")]
    [MemberData(nameof(RealRegions))]
    public void Select_OnARegionTheGameWrote_PicksWhatTheTagsSay(string file)
    {
        var path = Path.Combine(SharedData.Folder("worlds"), file);
        Assert.True(RegionFileEntry.TryParse(Path.GetFileName(path), out var regionX, out var regionZ));
        var region = RegionFile.Open(path);
        var query = ChunkQuery.Parse("InhabitedTime < 2m or LastUpdate >= 1d");
        var selection = query.Select(region, regionX, regionZ);
        var expected = region.Chunks.Where(c =>
        {
            var root = (NbtCompound)region.ReadChunk(c.X, c.Z)!.Root;
            var level = root.TryGet<NbtCompound>("Level", out var nested) ? nested : root;
            return level.GetValue<long>("InhabitedTime") < 2_400 || level.GetValue<long>("LastUpdate") >= 1_728_000;
        });
        Assert.Equal(expected, selection.Matches);
        Assert.Equal(region.Chunks.Count(), selection.Chunks);
        Assert.Empty(selection.Errors);

        // x and z from the header agree with the chunks' own positions.
        var positional = ChunkQuery.Parse($"x in {(regionX * 32) + 4}..{(regionX * 32) + 9} and z in {regionZ * 32}..{(regionZ * 32) + 20}");
        var byChunk = region.Chunks.Where(c => positional.Matches(Chunk.Read((NbtCompound)region.ReadChunk(c.X, c.Z)!.Root), c.Timestamp));
        Assert.Equal(byChunk, positional.Select(region, regionX, regionZ).Matches);
    }

    [Fact]
    public void Select_ListsAChunkItCannotRead_AndGoesOn()
    {
        var region = new RegionFile();
        region.WriteChunk(0, 0, new NbtDocument(string.Empty, ChunkRoot(0, 0, 0, 0, 3465, "minecraft:full")));
        region.WriteChunk(1, 0, new NbtDocument(string.Empty, new NbtCompound { { "DataVersion", new NbtInt(3465) } }));
        var selection = ChunkQuery.Parse("InhabitedTime = 0").Select(region, 0, 0);
        Assert.Equal([(0, 0)], selection.Matches.Select(c => (c.X, c.Z)));
        var error = Assert.Single(selection.Errors);
        Assert.Equal((1, 0, NbtErrorCodes.World), (error.X, error.Z, error.Error.Code));
    }

    [Fact]
    public void AChunkSavedUnderAnotherPosition_IsPlacedByItsSlot_AsTheGameRelocatesIt()
    {
        // Slot (2, 3) of region (1, -1) holds a chunk whose xPos and zPos say (0, 0): the game reads it as chunk (34, -29).
        var region = new RegionFile();
        region.WriteChunk(2, 3, new NbtDocument(string.Empty, ChunkRoot(0, 0, 0, 0, 3465, "minecraft:full")));
        var chunk = Chunk.Read((NbtCompound)region.ReadChunk(2, 3)!.Root, 34, -29);
        Assert.Equal((34, -29), (chunk.X, chunk.Z));
        Assert.Equal("minecraft:chest", chunk.GetBlock((34 * 16) + 5, 0, -29 * 16)!.Name);
        Assert.Equal([((34 * 16) + 5, 0, -29 * 16)], chunk.FindBlocks("minecraft:chest").Select(b => (b.X, b.Y, b.Z)));

        // A query that reads the chunk places it as one that reads the header alone does.
        foreach (var text in new[] { "x = 34 and z = -29", "x = 34 and z = -29 and contains minecraft:chest" })
        {
            Assert.Equal([(2, 3)], ChunkQuery.Parse(text).Select(region, 1, -1).Matches.Select(c => (c.X, c.Z)));
        }

        Assert.Empty(ChunkQuery.Parse("x = 0 and contains minecraft:chest").Select(region, 1, -1).Matches);
        Assert.Equal((0, 0), (Chunk.Read(chunk.Root).X, Chunk.Read(chunk.Root).Z));
    }

    internal static NbtCompound ChunkRoot(int x, int z, long inhabited, long lastUpdate, int dataVersion, string status)
    {
        // Palette: stone, chest, diamond ore (unused); 4 bits an index, 16 to a long; the chest is block 5.
        var data = new long[256];
        data[0] = 1L << (5 * 4);
        var palette = new NbtList([new BlockState("minecraft:stone").ToCompound(), new BlockState("minecraft:chest").ToCompound(), new BlockState("minecraft:diamond_ore").ToCompound()]);
        return new NbtCompound
        {
            { "DataVersion", new NbtInt(dataVersion) },
            { "xPos", new NbtInt(x) },
            { "zPos", new NbtInt(z) },
            { "Status", new NbtString(status) },
            { "InhabitedTime", new NbtLong(inhabited) },
            { "LastUpdate", new NbtLong(lastUpdate) },
            { "sections", new NbtList([new NbtCompound { { "Y", new NbtByte(0) }, { "block_states", new NbtCompound { { "palette", palette }, { "data", new NbtLongArray(data) } } } }]) },
        };
    }
}

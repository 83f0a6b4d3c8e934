using Millrace.Nbt;
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Cli.Tests;

public sealed class WorldCommandsTests : IDisposable
{
    private readonly DirectoryInfo _world = Directory.CreateTempSubdirectory("millrace-world-cli-");

    public WorldCommandsTests()
    {
        var data = new NbtCompound { { "LevelName", new NbtString("Cli world") }, { "DataVersion", new NbtInt(3955) }, { "Version", new NbtCompound { { "Name", new NbtString("1.21.1") } } } };
        File.WriteAllBytes(Path.Combine(_world.FullName, "level.dat"), new NbtFile(new NbtDocument(string.Empty, new NbtCompound { { "Data", data } }), NbtFormat.Java, NbtCompression.Gzip).ToArray());
        Directory.CreateDirectory(Path.Combine(_world.FullName, "region"));

        // Chunk (0, 0): section 4 (y 64-79) all stone but one oak log at (1, 64, 2); chunk (-1, 0) in region r.-1.0: one
        // section of air. Each a biome of its own.
        var overworld = new RegionFile();
        var chunk = ChunkDocument(0, 0, "minecraft:stone", "minecraft:plains");
        Chunk.Read((NbtCompound)chunk.Root).SetBlock(1, 64, 2, BlockState.Parse("minecraft:oak_log[axis=y]"));
        overworld.WriteChunk(0, 0, chunk, RegionCompression.Zlib, DateTimeOffset.FromUnixTimeSeconds(1_700_000_000));
        File.WriteAllBytes(RegionPath(0, 0), overworld.ToArray());

        var west = new RegionFile();
        west.WriteChunk(31, 0, ChunkDocument(-1, 0, "minecraft:air", "minecraft:desert"), RegionCompression.Gzip, DateTimeOffset.FromUnixTimeSeconds(1_700_000_000));
        File.WriteAllBytes(RegionPath(-1, 0), west.ToArray());
    }

    public void Dispose() => _world.Delete(recursive: true);

    [Fact]
    public async Task Info_PrintsTheWorldsNameVersionAndDimensions()
    {
        var run = await Run("world", "info", _world.FullName);
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Contains("name: Cli world\n", run.Output, StringComparison.Ordinal);
        Assert.Contains("version: 1.21.1 (DataVersion 3955)\n", run.Output, StringComparison.Ordinal);
        Assert.Matches(@"minecraft:overworld: 2 region files, 2 chunks, \d+ bytes\n", run.Output);
        Assert.Empty(run.Error);
    }

    [Fact]
    public async Task Stats_CountsEveryBlockAndBiome_AsJson()
    {
        var run = await Run("world", "stats", _world.FullName, "--json", "--parallel", "2");
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal("""{"chunks":2,"sections":2,"blocks":{"minecraft:air":4096,"minecraft:oak_log":1,"minecraft:stone":4095},"biomes":{"minecraft:desert":64,"minecraft:plains":64}}""" + "\n", run.Output);

        var one = await Run("world", "stats", RegionPath(-1, 0));
        Assert.Equal(ExitCodes.Success, one.ExitCode);
        Assert.StartsWith("chunks: 1\nsections: 1\nblocks:\n  minecraft:air 4096\nbiomes:\n  minecraft:desert 64\n", one.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task GetAndSet_ReadAndWriteABlock_KeepingTheOtherChunksBytes()
    {
        Assert.Equal("minecraft:oak_log[axis=y]\n", (await Run("world", "get", _world.FullName, "1", "64", "2")).Output);
        Assert.Equal("minecraft:stone\n", (await Run("world", "get", _world.FullName, "0", "79", "15")).Output);
        Assert.Equal("minecraft:air\n", (await Run("world", "get", _world.FullName, "-1", "64", "0")).Output);

        var before = RegionFile.Load(await File.ReadAllBytesAsync(RegionPath(-1, 0)));
        var set = await Run("world", "set", _world.FullName, "-16", "70", "15", "minecraft:chest[facing=north,waterlogged=false,type=single]");
        Assert.Equal(ExitCodes.Success, set.ExitCode);
        Assert.Empty(set.Error);
        Assert.Equal("minecraft:chest[facing=north,type=single,waterlogged=false]\n", (await Run("world", "get", _world.FullName, "-16", "70", "15")).Output);
        var after = RegionFile.Load(await File.ReadAllBytesAsync(RegionPath(-1, 0)));
        Assert.Equal(before.Chunks.Single() with { CompressedLength = 0 }, after.Chunks.Single() with { CompressedLength = 0 });
        Assert.Empty(Directory.EnumerateFiles(Path.Combine(_world.FullName, "region"), "*.tmp"));
    }

    [Theory]
    [InlineData("world info {world}/nowhere", ExitCodes.BadInput, "io.open")]
    [InlineData("world get {world} 1 64 2 --dimension minecraft:the_end", ExitCodes.BadInput, "world.dimension")]
    [InlineData("world get {world} 5000 64 2", ExitCodes.BadInput, "nbt.region.absent")]
    [InlineData("world get {world} 40 64 2", ExitCodes.BadInput, "nbt.region.absent")]
    [InlineData("world get {world} 1 0 2", ExitCodes.BadInput, "world.no-blocks")]
    [InlineData("world set {world} 1 0 2 minecraft:stone", ExitCodes.BadInput, "world.no-blocks")]
    [InlineData("world set {world} 1 64 2 minecraft:stone[axis]", ExitCodes.Usage, null)]
    [InlineData("world get {world} 1 99999 2", ExitCodes.Usage, null)]
    public async Task BadPathsAndArguments_AreOneLineWithTheirExitCode(string command, int exitCode, string? code)
    {
        var run = await Run(command.Replace("{world}", _world.FullName, StringComparison.Ordinal).Split(' '));
        Assert.Equal(exitCode, run.ExitCode);
        Assert.Single(run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        if (code is not null)
        {
            Assert.Contains($": {code}: ", run.Error, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Stats_ReportsAnUnreadableRegion_AndCountsTheOthers()
    {
        await File.WriteAllBytesAsync(RegionPath(5, 5), [1, 2, 3]);
        var run = await Run("world", "stats", _world.FullName, "--json");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("r.5.5.mca: nbt.region: ", run.Error, StringComparison.Ordinal);
        Assert.Single(run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("""{"chunks":2,""", run.Output, StringComparison.Ordinal);
    }

    private static Task<CliRun> Run(params string[] args) => CliRun.Invoke(args);

    private string RegionPath(int x, int z) => Path.Combine(_world.FullName, "region", $"r.{x}.{z}.mca");

    private static NbtDocument ChunkDocument(int x, int z, string block, string biome) => new(string.Empty, new NbtCompound
    {
        { "DataVersion", new NbtInt(3955) },
        { "xPos", new NbtInt(x) },
        { "zPos", new NbtInt(z) },
        { "Status", new NbtString("minecraft:full") },
        {
            "sections", new NbtList([new NbtCompound
            {
                { "Y", new NbtByte(4) },
                { "block_states", new NbtCompound { { "palette", new NbtList([new BlockState(block).ToCompound()]) } } },
                { "biomes", new NbtCompound { { "palette", new NbtList([new NbtString(biome)]) } } },
            }])
        },
    });
}

using System.Globalization;
using System.Text.RegularExpressions;
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
    [InlineData("world chunks {world}/nowhere --where x=1", ExitCodes.BadInput, "io.open")]
    [InlineData("world prune {world} --where x=1 --dimension minecraft:the_end", ExitCodes.BadInput, "world.dimension")]
    [InlineData("world find /dev/zero --block stone", ExitCodes.BadInput, "io.open")]
    public async Task BadPathsAndArguments_AreOneLineWithTheirExitCode(string command, int exitCode, string? code)
    {
        var run = await Run(command.Replace("{world}", _world.FullName, StringComparison.Ordinal).Split(' '));
        Assert.Equal(exitCode, run.ExitCode);
        Assert.Single(Failures(run));
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
        Assert.Single(Failures(run));
        Assert.StartsWith("""{"chunks":2,""", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Find_PrintsEveryBlockOfAName_AndChunks_TheChunksAQueryMatches()
    {
        var find = await Run("world", "find", _world.FullName, "--block", "oak_log");
        Assert.Equal(ExitCodes.Success, find.ExitCode);
        Assert.Equal("1 64 2 minecraft:oak_log[axis=y]\n", find.Output);
        Assert.Equal(4095, (await Run("world", "find", _world.FullName, "--block", "minecraft:stone", "--parallel", "1")).Output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.Empty((await Run("world", "find", _world.FullName, "--block", "oak_log", "--where", "x < 0")).Output);

        Assert.Equal("0 0\n", (await Run("world", "chunks", _world.FullName, "--where", "contains stone")).Output);
        Assert.Equal("-1 0\n0 0\n", (await Run("world", "chunks", _world.FullName, "--where", "Status = full and Timestamp = 2023-11-14T22:13:20")).Output);
        Assert.Equal("-1 0\n", (await Run("world", "chunks", RegionPath(-1, 0), "--where", "x in -1..-1")).Output);
    }

    [Fact]
    public async Task AChunkSavedUnderAnotherPosition_IsFoundAndReadAtItsSlot_AsTheGameRelocatesIt()
    {
        // Region r.0.0's slot (3, 0) holds a copy of chunk (0, 0), xPos and zPos unchanged: the game reads it as chunk (3, 0).
        var path = RegionPath(0, 0);
        var region = RegionFile.Open(path);
        region.WriteChunk(3, 0, region.ReadChunk(0, 0)!, RegionCompression.Zlib, DateTimeOffset.FromUnixTimeSeconds(1_700_000_000));
        File.WriteAllBytes(path, region.ToArray());

        var find = await Run("world", "find", _world.FullName, "--block", "oak_log", "--where", "contains stone");
        Assert.Equal("1 64 2 minecraft:oak_log[axis=y]\n49 64 2 minecraft:oak_log[axis=y]\n", find.Output);
        Assert.Equal("3 0\n", (await Run("world", "chunks", _world.FullName, "--where", "x = 3 and contains stone")).Output);
        Assert.Equal("minecraft:oak_log[axis=y]\n", (await Run("world", "get", _world.FullName, "49", "64", "2")).Output);
    }

    [Theory]
    [InlineData("world chunks {world} --where", "Required argument missing")]
    [InlineData("world chunks {world} --where x<", "nbt.query: Expected a value after '<', not the end of the query. (byte offset 2)")]
    [InlineData("world prune {world} --where Foo=1 --apply", "nbt.query: 'Foo' is not a field")]
    [InlineData("world find {world} --block stone --where (x=1", "nbt.query: Expected ')'")]
    [InlineData("world find {world}", "--block")]
    public async Task ABadQuery_IsAUsageError_OnOneLine(string command, string message)
    {
        var run = await Run(command.Replace("{world}", _world.FullName, StringComparison.Ordinal).Split(' '));
        Assert.Equal(ExitCodes.Usage, run.ExitCode);
        Assert.Contains(message, run.Error, StringComparison.Ordinal);
        Assert.Single(run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Empty(run.Output);
    }

    [SharedDataFact("worlds")]
    public async Task Prune_IsADryRunByDefault_AndWithApply_DeletesTheChunksAndTheirEntities_KeepingTheOthersBytes()
    {
        var folder = Path.Combine(_world.FullName, "real");
        Directory.CreateDirectory(Path.Combine(folder, "region"));
        Directory.CreateDirectory(Path.Combine(folder, "entities"));
        var region = Path.Combine(folder, "region", "r.0.0.mca");
        var entities = Path.Combine(folder, "entities", "r.0.0.mca");
        File.Copy(Path.Combine(SharedData.Folder("worlds"), "1.20.1-bluenbt", "r.0.0.mca"), region);
        var companion = new RegionFile();
        foreach (var (x, z) in new[] { (0, 0), (5, 4), (31, 31) })
        {
            companion.WriteChunk(x, z, new NbtDocument(string.Empty, new NbtCompound { { "Position", new NbtIntArray([x, z]) }, { "Entities", new NbtList() } }));
        }

        await File.WriteAllBytesAsync(entities, companion.ToArray());
        var before = IndependentRegion.Read(await File.ReadAllBytesAsync(region));
        var selected = (await Run("world", "chunks", region, "--where", "contains minecraft:chest")).Output
            .Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => line.Split(' ')).Select(p => (int.Parse(p[0], CultureInfo.InvariantCulture), int.Parse(p[1], CultureInfo.InvariantCulture))).ToHashSet();
        Assert.Contains((5, 4), selected);
        Assert.DoesNotContain((0, 0), selected);

        var dry = await Run("world", "prune", region, "--where", "contains minecraft:chest");
        Assert.Equal(ExitCodes.Success, dry.ExitCode);
        Assert.Matches($@"^{Regex.Escape(region)}: {selected.Count} of {before.Count} chunks, \d+ bytes\ndry run: {selected.Count} of {before.Count} chunks match in 1 of 1 region files; deleting them would free \d+ bytes \(--apply deletes them\)\n$", dry.Output);
        Assert.Equal(before.Keys, IndependentRegion.Read(await File.ReadAllBytesAsync(region)).Keys);

        var apply = await Run("world", "prune", region, "--where", "contains minecraft:chest", "--apply");
        Assert.Equal(ExitCodes.Success, apply.ExitCode);
        Assert.Equal(dry.Output.Split('\n')[0], apply.Output.Split('\n')[0]);
        var after = IndependentRegion.Read(await File.ReadAllBytesAsync(region), withoutGaps: true);
        Assert.Equal(before.Keys.Where(k => !selected.Contains(k)).Order(), after.Keys.Order());
        Assert.All(after, kept => Assert.Equal(before[kept.Key], kept.Value));
        Assert.Equal([(0, 0), (31, 31)], IndependentRegion.Read(await File.ReadAllBytesAsync(entities), withoutGaps: true).Keys.Order());
        Assert.DoesNotContain(Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories), f => !f.EndsWith(".mca", StringComparison.Ordinal));

        // A region left with no chunk is removed, as the game treats a missing region: not generated.
        var all = await Run("world", "prune", region, "--where", "x > -1000", "--apply");
        Assert.Equal(ExitCodes.Success, all.ExitCode);
        Assert.False(File.Exists(region));
    }

    [SharedDataFact("worlds")]
    public async Task Prune_Interrupted_LeavesEachRegionOldOrNew_AndNoTemporaryFile()
    {
        var folder = Path.Combine(_world.FullName, "many", "region");
        Directory.CreateDirectory(folder);
        var source = Path.Combine(SharedData.Folder("worlds"), "1.21.1-prismarine", "r.0.0.mca");
        var original = IndependentRegion.Read(await File.ReadAllBytesAsync(source));
        for (var i = 0; i < 40; i++)
        {
            File.Copy(source, Path.Combine(folder, $"r.{i}.0.mca"));
        }

        // Interrupted once the first region is written, while the others wait or are in flight.
        using var interrupt = new CancellationTokenSource();
        var length = new FileInfo(source).Length;
        var watcher = Task.Run(async () =>
        {
            while (Directory.EnumerateFiles(folder, "r.*.mca").All(f => new FileInfo(f).Length == length))
            {
                await Task.Delay(2);
            }

            await interrupt.CancelAsync();
        });
        var run = await CliRun.InvokeUntil(interrupt.Token, "world", "prune", folder, "--where", "x < 7 and InhabitedTime < 1h", "--apply", "--parallel", "2");
        Assert.Equal(ExitCodes.Interrupted, run.ExitCode);
        Assert.Contains("millrace: cancelled: pruning stopped after ", run.Error, StringComparison.Ordinal);
        Assert.StartsWith("cancelled: pruned ", run.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries)[^1], StringComparison.Ordinal);
        Assert.Equal(40, Directory.EnumerateFiles(folder).Count());
        var pruned = 0;
        foreach (var file in Directory.EnumerateFiles(folder))
        {
            var chunks = IndependentRegion.Read(await File.ReadAllBytesAsync(file));
            pruned += chunks.Count < original.Count ? 1 : 0;
            Assert.All(chunks, kept => Assert.Equal(original[kept.Key], kept.Value));
        }

        await watcher;
        Assert.InRange(pruned, 1, 39);

        // The line counts the regions that ended, every one pruned among them, whether or not its result was printed.
        var ended = int.Parse(System.Text.RegularExpressions.Regex.Match(run.Error, "stopped after ([0-9]+) of 40 region files").Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
        Assert.InRange(ended, pruned, 40);
    }

    [Fact]
    public async Task ALevelDatThatIsAPipe_IsRefused_NotWaitedOn()
    {
        var folder = Path.Combine(_world.FullName, "piped");
        Directory.CreateDirectory(folder);
        using (var mkfifo = System.Diagnostics.Process.Start("mkfifo", Path.Combine(folder, "level.dat")))
        {
            await mkfifo.WaitForExitAsync();
            Assert.Equal(0, mkfifo.ExitCode);
        }

        using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        foreach (var verb in new[] { "info", "stats" })
        {
            var run = await CliRun.InvokeUntil(bound.Token, "world", verb, folder);
            Assert.Equal(ExitCodes.BadInput, run.ExitCode);
            Assert.Contains("level.dat: io.open: It is a device, pipe or socket", run.Error, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task ALevelDatThatIsNotNbt_IsNamedInTheError_NotItsFolder()
    {
        var folder = Path.Combine(_world.FullName, "garbled");
        Directory.CreateDirectory(folder);
        await File.WriteAllBytesAsync(Path.Combine(folder, "level.dat"), [0x0A, 0x00]);
        var run = await Run("world", "info", folder);
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.StartsWith($"millrace: {Path.Combine(folder, "level.dat")}: nbt.", Assert.Single(Failures(run)), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("world stats {empty}", ExitCodes.BadInput, "io.open: The folder holds no level.dat and no region files")]
    [InlineData("world find {world} --block", ExitCodes.Usage, "--block")]
    [InlineData("world find {world} --block minecraft:stone[axis=y]", ExitCodes.Usage, "without properties")]
    [InlineData("world stats {world} --cluster nonsense", ExitCodes.Usage, "--cluster must be HOST:PORT")]
    [InlineData("world prune {world} --where x=1 --cluster 127.0.0.1:30000 --parallel 2", ExitCodes.Usage, "--parallel does not go with --cluster")]
    public async Task WhatIsNotAWorldOrAName_IsRefusedOnOneLine(string command, int exitCode, string message)
    {
        var empty = Directory.CreateDirectory(Path.Combine(_world.FullName, "empty")).FullName;
        var run = await Run(command.Replace("{world}", _world.FullName, StringComparison.Ordinal).Replace("{empty}", empty, StringComparison.Ordinal).Split(' '));
        Assert.Equal(exitCode, run.ExitCode);
        Assert.Contains(message, run.Error, StringComparison.Ordinal);
        Assert.Single(Failures(run));
    }

    [SharedDataFact("worlds")]
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    public async Task Prune_WithACompanionItCannotRead_ChangesNothing_AndKeepsTheFilesMode()
    {
        var folder = Path.Combine(_world.FullName, "broken");
        foreach (var sub in new[] { "region", "entities", "poi" })
        {
            Directory.CreateDirectory(Path.Combine(folder, sub));
        }

        var region = Path.Combine(folder, "region", "r.0.0.mca");
        File.Copy(Path.Combine(SharedData.Folder("worlds"), "1.21.1-prismarine", "r.0.0.mca"), region);
        File.SetUnixFileMode(region, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        await File.WriteAllBytesAsync(Path.Combine(folder, "poi", "r.0.0.mca"), [1, 2, 3, 4, 5]);
        var before = await File.ReadAllBytesAsync(region);

        var run = await Run("world", "prune", region, "--where", "x < 3", "--apply");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("poi", Assert.Single(Failures(run)), StringComparison.Ordinal);
        Assert.Equal(before, await File.ReadAllBytesAsync(region));

        File.Delete(Path.Combine(folder, "poi", "r.0.0.mca"));
        Assert.Equal(ExitCodes.Success, (await Run("world", "prune", region, "--where", "x < 3", "--apply")).ExitCode);
        Assert.NotEqual(before.Length, new FileInfo(region).Length);
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(region));
    }

    [Fact]
    public async Task AChunkWhosePlaceIsDamaged_IsReportedByTheReadingVerbs_AndPruneLeavesItsRegionAlone()
    {
        var path = RegionPath(0, 0);
        var bytes = await File.ReadAllBytesAsync(path);
        var offset = (int)(System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(bytes) >> 8) * 4096;
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(offset), 90_000);
        await File.WriteAllBytesAsync(path, bytes);

        var stats = await Run("world", "stats", _world.FullName, "--json");
        Assert.Equal(ExitCodes.BadInput, stats.ExitCode);
        Assert.Contains("r.0.0.mca: nbt.region: chunk 0 0 of the region: Chunk 0,0 declares 90000 bytes", Assert.Single(Failures(stats)), StringComparison.Ordinal);
        Assert.StartsWith("""{"chunks":1,""", stats.Output, StringComparison.Ordinal);

        var prune = await Run("world", "prune", _world.FullName, "--where", "x > -100", "--apply");
        Assert.Equal(ExitCodes.BadInput, prune.ExitCode);
        Assert.Equal(bytes, await File.ReadAllBytesAsync(path));
    }

    // `world find ... | head -1`: the tool in its own process, whose reader takes one line and closes the pipe, ends at
    // once with 141 (128 + SIGPIPE) and nothing on standard error, where the console's stream would drop every write and
    // run the whole job.
    [Fact]
    public async Task Find_IntoAPipeItsReaderCloses_EndsAtOnce_Quietly()
    {
        var region = new RegionFile();
        var stone = ChunkDocument(0, 0, "minecraft:stone", "minecraft:plains").ToArray();
        for (var x = 0; x < 32; x++)
        {
            for (var z = 0; z < 8; z++)
            {
                var chunk = NbtDocument.Read(stone);
                ((NbtCompound)chunk.Root)["xPos"] = new NbtInt(x);
                ((NbtCompound)chunk.Root)["zPos"] = new NbtInt(z);
                region.WriteChunk(x, z, chunk, RegionCompression.Zlib, DateTimeOffset.FromUnixTimeSeconds(1_700_000_000));
            }
        }

        // Four regions of a million stone blocks each (and the world's one of air): the first fills the pipe many times over.
        var bytes = region.ToArray();
        for (var x = 0; x < 4; x++)
        {
            File.WriteAllBytes(RegionPath(x, 0), bytes);
        }

        var start = new System.Diagnostics.ProcessStartInfo("dotnet", [Path.Combine(AppContext.BaseDirectory, "millrace.dll"), "world", "find", _world.FullName, "--block", "stone", "--parallel", "1"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = System.Diagnostics.Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        Assert.Matches(@"^\d+ \d+ \d+ minecraft:stone$", await process.StandardOutput.ReadLineAsync(timeout.Token));
        process.StandardOutput.Close();
        await process.WaitForExitAsync(timeout.Token);

        Assert.True(process.ExitCode == ExitCodes.OutputClosed, $"exit {process.ExitCode}: {await stderr}");
        Assert.Empty(Failures(await stderr));

        // The run stopped in its first region: a run to the end says so in its last progress line.
        Assert.DoesNotContain("5/5", await stderr, StringComparison.Ordinal);
    }

    // The help is written when the run ends, through the same writer: a reader gone by then ends the run as quietly.
    [Fact]
    public async Task TheHelp_IntoAPipeAlreadyClosed_EndsWith141()
    {
        var error = new StringWriter();
        var output = new StandardOutput(new BreaksAfter(writes: 0));
        Assert.Equal(ExitCodes.OutputClosed, await MillraceCli.RunAsync(["--help"], new CliConsole(new MemoryStream(), output, error)));
        Assert.Empty(error.ToString());
    }

    // A file not named r.X.Z.mca is read as region 0,0 by every verb: its chunks are at their slots, whatever xPos says.
    [Fact]
    public async Task AFileNotNamedAsARegion_IsRegion00_ForEveryVerb()
    {
        var copy = Path.Combine(_world.FullName, "backup.mca");
        var region = RegionFile.Open(RegionPath(-1, 0));
        File.WriteAllBytes(copy, region.ToArray());
        Assert.Equal("31 0\n", (await Run("world", "chunks", copy, "--where", "x = 31 and contains air")).Output);
        Assert.Empty((await Run("world", "chunks", copy, "--where", "x = -1 and contains air")).Output);
        var find = await Run("world", "find", copy, "--block", "air", "--where", "x = 31");
        Assert.Equal(4096, find.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.StartsWith("496 ", find.Output, StringComparison.Ordinal);
        Assert.Equal(ExitCodes.BadInput, (await Run("world", "chunks", copy, "--where", "x = 31")).ExitCode);
    }

    // The same in process, through a pipe that breaks after the first write: a verb that reports per file stops too.
    [Theory]
    [InlineData("world find {world} --block stone")]
    [InlineData("world chunks {world} --where x>-100")]
    [InlineData("nbt show {sample}")]
    public async Task AnyVerb_WritingToAClosedPipe_EndsWith141_AndNothingOnStandardError(string command)
    {
        var arguments = command.Replace("{world}", _world.FullName, StringComparison.Ordinal).Replace("{sample}", CliRun.Sample("bigtest.nbt"), StringComparison.Ordinal).Split(' ');
        var error = new StringWriter();
        var output = new StandardOutput(new BreaksAfter(writes: 1));
        var exitCode = await MillraceCli.RunAsync(arguments, new CliConsole(new MemoryStream(), output, error));
        Assert.True(exitCode == ExitCodes.OutputClosed, $"exit {exitCode}: {error}");
        Assert.True(output.ReaderGone);
        Assert.Empty(Failures(error.ToString()));
    }

    // What a silo's world handler returns for a region is what the verb works out in one process (.ci/cluster-e2e runs the
    // verbs on real silos and compares what they print).
    [Fact]
    public async Task TheSilosWorldHandler_FindsAsTheVerbDoesInOneProcess()
    {
        var handler = new Cluster.WorldRegionHandler(new CliConsole(new MemoryStream(), new MemoryStream(), new StringWriter()));
        foreach (var query in new[] { null, "contains minecraft:stone" })
        {
            var payload = new Cluster.WorldRegionPayload("find", RegionPath(0, 0), query, Block: "minecraft:oak_log").ToJson();
            var remote = Worlds.RegionBlocks.FromJson((await handler.HandleWithResultAsync(new Millrace.Cluster.Jobs.WorkItem("0", payload), CancellationToken.None))!);
            var local = Worlds.RegionWork.Find(RegionPath(0, 0), "minecraft:oak_log", query is null ? null : ChunkQuery.Parse(query), CancellationToken.None);
            Assert.Equal(local.Positions, remote.Positions);
            Assert.Equal(local.States, remote.States);
            Assert.Equal(local.StateOf, remote.StateOf);
            Assert.Equal([1, 64, 2], remote.Positions);
            Assert.Equal(["minecraft:oak_log[axis=y]"], remote.States);
        }
    }

    private static Task<CliRun> Run(params string[] args) => CliRun.Invoke(args);

    // Standard error's lines but the progress display's.
    private static string[] Failures(CliRun run) => Failures(run.Error);

    private static string[] Failures(string error) =>
        [.. error.Split('\n', StringSplitOptions.RemoveEmptyEntries).Where(line => !line.StartsWith("progress: ", StringComparison.Ordinal))];

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

/// <summary>A pipe whose reader leaves after some writes: later writes fail as the platform fails them (EPIPE).</summary>
internal sealed class BreaksAfter(int writes) : MemoryStream
{
    private int _left = writes;

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        if (_left == 0)
        {
            throw new IOException("Broken pipe", 32);
        }

        _left--;
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));
}

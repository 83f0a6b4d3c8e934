using System.CommandLine;
using System.Globalization;
using System.Text.Json;
using Millrace.Nbt;
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;
using Millrace.Parallel;

namespace Millrace.Cli.Worlds;

/// <summary>The <c>millrace world</c> verbs over Java worlds: info, stats, get and set.</summary>
internal static class WorldCommands
{
    // The game's world border is 30 million blocks from the origin; heights stay within what a section's Y byte allows.
    private const int MaxHorizontal = 30_000_000;
    private const int MinHeight = -2048;
    private const int MaxHeight = 2047;

    public static Command Create(CliConsole console)
    {
        var world = new Command("world", "Read and edit Java worlds: their folders, region files, chunks and blocks.");
        world.Add(Info(console));
        world.Add(Stats(console));
        world.Add(Get(console));
        world.Add(Set(console));
        return world;
    }

    private static Command Info(CliConsole console)
    {
        var path = new Argument<string>("path") { Description = "The world's folder (the one holding level.dat)." };
        var command = new Command("info", "Print a world's name, version, dimensions, region files, chunks and bytes on disk.") { path };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(path)!;
            if (Open(name, console) is not { } world)
            {
                return ExitCodes.BadInput;
            }

            await using var output = console.CreateTextOutput();
            await output.WriteLineAsync($"name: {world.Name ?? "(none)"}");
            await output.WriteLineAsync($"version: {world.VersionName ?? "(none)"} (DataVersion {(world.DataVersion is { } version ? version.ToString(CultureInfo.InvariantCulture) : "none")})");
            if (world.Spawn is var (x, y, z))
            {
                await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"spawn: {x} {y} {z}"));
            }

            var failed = false;
            foreach (var dimension in world.Dimensions)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var (chunks, bytes) = (0L, 0L);
                foreach (var region in dimension.Regions)
                {
                    bytes += new FileInfo(region.Path).Length;
                    try
                    {
                        chunks += RegionFile.Open(region.Path).Chunks.Count();
                    }
                    catch (Exception exception) when (CliErrors.From(exception) is not null)
                    {
                        console.Report(region.Path, exception);
                        failed = true;
                    }
                }

                await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{dimension.Name}: {dimension.Regions.Count} region files, {chunks} chunks, {bytes} bytes"));
            }

            await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"players: {world.PlayerFiles.Count}"));
            return failed ? ExitCodes.BadInput : ExitCodes.Success;
        });
        return command;
    }

    private static Command Stats(CliConsole console)
    {
        var path = new Argument<string>("path") { Description = "A world's folder, a folder of region files, or one .mca file." };
        var dimension = DimensionOption();
        var json = new Option<bool>("--json") { Description = "Print {\"chunks\": N, \"sections\": M, \"blocks\": {...}, \"biomes\": {...}}, names in order, instead of text." };
        var parallel = CliOptions.WholeNumber("--parallel", "Region files read at once (default: the number of processors).", 1, 1024, () => Environment.ProcessorCount);
        var command = new Command("stats", "Count every block name (and biome) over a world, a folder of region files or one region file.") { path, dimension, json, parallel };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(path)!;
            if (RegionsOf(name, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = parsed.GetValue(parallel), Metrics = false };
            var results = await regions.SelectParallelResultsAsync((region, token) => ValueTask.FromResult(Count(region, token)), options, cancellationToken);
            var total = new WorldStatistics();
            var failures = 0;
            foreach (var result in results.OrderBy(r => r.Index))
            {
                var region = regions[(int)result.Index];
                if (result.Result.TryGetValue(out var counted))
                {
                    total.Add(counted.Statistics);
                    foreach (var error in counted.ChunkErrors)
                    {
                        failures++;
                        console.ReportError(region, error);
                    }
                }
                else
                {
                    failures++;
                    var error = result.Result.Error;
                    console.ReportError(region, error.Exception is { } exception ? CliErrors.Describe(exception) : error);
                }
            }

            if (parsed.GetValue(json))
            {
                await WriteJsonAsync(total, console.Output, cancellationToken);
            }
            else
            {
                await using var output = console.CreateTextOutput();
                await WriteTextAsync(total, output);
            }

            return failures == 0 ? ExitCodes.Success : ExitCodes.BadInput;
        });
        return command;
    }

    private static Command Get(CliConsole console)
    {
        var (path, x, y, z, dimension) = BlockArguments();
        var command = new Command("get", "Print the block state at world coordinates, as name[key=value,...] with the properties sorted.") { path, x, y, z, dimension };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(path)!;
            var (bx, by, bz) = (parsed.GetValue(x), parsed.GetValue(y), parsed.GetValue(z));
            if (ChunkAt(name, parsed.GetValue(dimension)!, bx, bz, console) is not { } found)
            {
                return ExitCodes.BadInput;
            }

            var (_, regionPath, _, chunk) = found;
            try
            {
                if (chunk.GetBlock(bx, by, bz) is not { } state)
                {
                    console.ReportError(regionPath, new Error(CliErrorCodes.WorldNoBlocks, string.Create(CultureInfo.InvariantCulture, $"Chunk ({chunk.X}, {chunk.Z}) has no blocks at y {by}.")));
                    return ExitCodes.BadInput;
                }

                await using var output = console.CreateTextOutput();
                await output.WriteLineAsync(state.ToString());
                return ExitCodes.Success;
            }
            catch (MillraceException exception)
            {
                console.Report(regionPath, exception);
                return ExitCodes.BadInput;
            }
        });
        return command;
    }

    private static Command Set(CliConsole console)
    {
        var (path, x, y, z, dimension) = BlockArguments();
        var state = new Argument<string>("state") { Description = "The block state, as name[key=value,...] (minecraft:oak_stairs[facing=east]); before 1.13, legacy:ID[data=D]." };
        state.Validators.Add(result =>
        {
            try
            {
                BlockState.Parse(result.GetValueOrDefault<string>() ?? string.Empty);
            }
            catch (FormatException exception)
            {
                result.AddError($"The state is not name[key=value,...]: {exception.Message}");
            }
        });
        var command = new Command("set", "Set the block state at world coordinates, writing its region file atomically.") { path, x, y, z, state, dimension };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(path)!;
            var (bx, by, bz) = (parsed.GetValue(x), parsed.GetValue(y), parsed.GetValue(z));
            if (ChunkAt(name, parsed.GetValue(dimension)!, bx, bz, console) is not { } found)
            {
                return ExitCodes.BadInput;
            }

            var (document, regionPath, region, chunk) = found;
            try
            {
                chunk.SetBlock(bx, by, bz, BlockState.Parse(parsed.GetValue(state)!));
            }
            catch (Exception exception) when (exception is MillraceException or ArgumentException)
            {
                console.Report(regionPath, exception);
                return ExitCodes.BadInput;
            }
            catch (InvalidOperationException exception)
            {
                console.ReportError(regionPath, new Error(CliErrorCodes.WorldNoBlocks, exception.Message));
                return ExitCodes.BadInput;
            }

            // The chunk keeps its compression and timestamp: only its bytes change.
            var stored = region.Chunks.First(c => c.X == (chunk.X & 31) && c.Z == (chunk.Z & 31));
            region.WriteChunk(stored.X, stored.Z, document, stored.Compression, stored.Timestamp);
            return await Nbt.NbtCommands.SaveAsync(region, regionPath, console, cancellationToken) ? ExitCodes.Success : ExitCodes.BadInput;
        });
        return command;
    }

    private static (Argument<string> Path, Argument<int> X, Argument<int> Y, Argument<int> Z, Option<string> Dimension) BlockArguments() => (
        new Argument<string>("path") { Description = "The world's folder (the one holding level.dat)." },
        CliOptions.WholeNumberArgument("x", "The block's x.", -MaxHorizontal, MaxHorizontal),
        CliOptions.WholeNumberArgument("y", "The block's y.", MinHeight, MaxHeight),
        CliOptions.WholeNumberArgument("z", "The block's z.", -MaxHorizontal, MaxHorizontal),
        DimensionOption());

    private static Option<string> DimensionOption() => new("--dimension")
    {
        Description = "The dimension, by id (minecraft:overworld, minecraft:the_nether, minecraft:the_end, or a datapack's namespace:path; default the overworld).",
        DefaultValueFactory = _ => "minecraft:overworld",
    };

    private static World? Open(string path, CliConsole console)
    {
        try
        {
            return World.Open(path);
        }
        catch (Exception exception) when (CliErrors.From(exception) is not null)
        {
            console.Report(path, exception);
            return null;
        }
    }

    private static WorldDimension? DimensionOf(string path, World world, string name, CliConsole console)
    {
        if (world.Dimensions.FirstOrDefault(d => d.Name == name) is { } dimension)
        {
            return dimension;
        }

        console.ReportError(path, new Error(CliErrorCodes.WorldDimension, $"The world has no dimension '{name}'; it has {string.Join(", ", world.Dimensions.Select(d => d.Name))}."));
        return null;
    }

    // A world's folder (its level.dat), a folder of region files, or one region file.
    private static List<string>? RegionsOf(string path, string dimensionName, CliConsole console)
    {
        if (File.Exists(path))
        {
            return [path];
        }

        if (!Directory.Exists(path))
        {
            console.ReportError(path, new Error(CliErrorCodes.Open, "No such file or folder."));
            return null;
        }

        if (!File.Exists(Path.Combine(path, "level.dat")))
        {
            return [.. RegionFileEntry.List(path).Select(r => r.Path)];
        }

        return Open(path, console) is { } world && DimensionOf(path, world, dimensionName, console) is { } dimension
            ? [.. dimension.Regions.Select(r => r.Path)]
            : null;
    }

    // One region's counts; a chunk that cannot be read is reported, located by its coordinates, and the others counted.
    private static RegionCount Count(string regionPath, CancellationToken cancellationToken)
    {
        if (!FileKind.IsRegularFile(regionPath))
        {
            throw new CliException(CliErrorCodes.Open, "It is a device, pipe or socket, not a regular file.");
        }

        var region = RegionFile.Open(regionPath);
        var counted = new RegionCount(new WorldStatistics(), []);
        foreach (var entry in region.Chunks)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                if (region.ReadChunk(entry.X, entry.Z)?.Root is NbtCompound root)
                {
                    counted.Statistics.Add(Chunk.Read(root));
                }
            }
            catch (MillraceException exception)
            {
                var error = exception.Error;
                counted.ChunkErrors.Add(error with { Message = string.Create(CultureInfo.InvariantCulture, $"chunk {entry.X} {entry.Z} of the region: {error.Message}") });
            }
        }

        return counted;
    }

    private static (NbtDocument Document, string RegionPath, RegionFile Region, Chunk Chunk)? ChunkAt(string path, string dimensionName, int x, int z, CliConsole console)
    {
        if (Open(path, console) is not { } world || DimensionOf(path, world, dimensionName, console) is not { } dimension)
        {
            return null;
        }

        var regionPath = Path.Combine(dimension.Folder, "region", string.Create(CultureInfo.InvariantCulture, $"r.{x >> 9}.{z >> 9}.mca"));
        if (!File.Exists(regionPath))
        {
            console.ReportError(regionPath, new Error(CliErrorCodes.RegionAbsent, string.Create(CultureInfo.InvariantCulture, $"The world has no region file for block ({x}, {z}).")));
            return null;
        }

        try
        {
            var region = RegionFile.Open(regionPath);
            if (region.ReadChunk((x >> 4) & 31, (z >> 4) & 31) is not { Root: NbtCompound root } document)
            {
                console.ReportError(regionPath, new Error(CliErrorCodes.RegionAbsent, string.Create(CultureInfo.InvariantCulture, $"The region has no chunk ({x >> 4}, {z >> 4}).")));
                return null;
            }

            var chunk = Chunk.Read(root);
            if (chunk.X != x >> 4 || chunk.Z != z >> 4)
            {
                console.ReportError(regionPath, new Error(NbtErrorCodes.World, string.Create(CultureInfo.InvariantCulture, $"The chunk stored for ({x >> 4}, {z >> 4}) says it is at ({chunk.X}, {chunk.Z}).")) { Path = "xPos" });
                return null;
            }

            return (document, regionPath, region, chunk);
        }
        catch (Exception exception) when (CliErrors.From(exception) is not null)
        {
            console.Report(regionPath, exception);
            return null;
        }
    }

    private static async Task WriteTextAsync(WorldStatistics statistics, TextWriter output)
    {
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"chunks: {statistics.Chunks}"));
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"sections: {statistics.Sections}"));
        foreach (var (title, counts) in new[] { ("blocks", statistics.Blocks), ("biomes", statistics.Biomes) })
        {
            await output.WriteLineAsync($"{title}:");
            foreach (var (name, count) in counts.OrderByDescending(c => c.Value).ThenBy(c => c.Key, StringComparer.Ordinal))
            {
                await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"  {name} {count}"));
            }
        }
    }

    private static async Task WriteJsonAsync(WorldStatistics statistics, Stream output, CancellationToken cancellationToken)
    {
        await using var writer = new Utf8JsonWriter(output);
        writer.WriteStartObject();
        writer.WriteNumber("chunks", statistics.Chunks);
        writer.WriteNumber("sections", statistics.Sections);
        foreach (var (title, counts) in new[] { ("blocks", statistics.Blocks), ("biomes", statistics.Biomes) })
        {
            writer.WriteStartObject(title);
            foreach (var (name, count) in counts.OrderBy(c => c.Key, StringComparer.Ordinal))
            {
                writer.WriteNumber(name, count);
            }

            writer.WriteEndObject();
        }

        writer.WriteEndObject();
        await writer.FlushAsync(cancellationToken);
        output.WriteByte((byte)'\n');
        await output.FlushAsync(cancellationToken);
    }

    /// <summary>A region's counts, and the chunks of it that could not be counted.</summary>
    private sealed record RegionCount(WorldStatistics Statistics, List<Error> ChunkErrors);
}

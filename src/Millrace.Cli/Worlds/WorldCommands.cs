using System.CommandLine;
using System.Globalization;
using System.Text.Json;
using Millrace.Cli.Cluster;
using Millrace.Nbt;
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Cli.Worlds;

/// <summary>The <c>millrace world</c> verbs over Java worlds: info, stats, get, set, find, chunks and prune.</summary>
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
        world.Add(Find(console));
        world.Add(Chunks(console));
        world.Add(Prune(console));
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
        var path = RegionsArgument();
        var dimension = DimensionOption();
        var json = new Option<bool>("--json") { Description = "Print {\"chunks\": N, \"sections\": M, \"blocks\": {...}, \"biomes\": {...}}, names in order, instead of text." };
        var parallel = ParallelOption();
        var cluster = new ClusterJobArguments("world-stats");
        var command = new Command("stats", "Count every block name (and biome) over a world, a folder of region files or one region file.") { path, dimension, json, parallel };
        cluster.AddTo(command);
        command.SetAction(async (parsed, cancellationToken) =>
        {
            if (await JobOf(parsed, console, parallel, cluster, "counting") is not { } job)
            {
                return ExitCodes.Usage;
            }

            if (RegionsOf(parsed.GetValue(path)!, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var total = new RegionCounts(0, 0, new(StringComparer.Ordinal), new(StringComparer.Ordinal), []);
            var exitCode = await job.RunAsync(
                regions,
                (region, token) => ValueTask.FromResult(RegionWork.Count(region, token)),
                (region, counted) =>
                {
                    total = total.Add(counted);
                    return ValueTask.FromResult(RegionJob.ReportChunkErrors(console, region, counted.Failures));
                },
                cancellationToken,
                (region => RegionPayload("stats", region), RegionCounts.FromJson));
            if (exitCode == ExitCodes.Interrupted)
            {
                return exitCode;
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

            return exitCode;
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

    private static Command Find(CliConsole console)
    {
        var path = RegionsArgument();
        var block = new Option<string>("--block")
        {
            Description = "The block's name: minecraft:diamond_ore (a name without a namespace is the game's), legacy:ID for blocks saved before 1.13.",
            Required = true,
        };
        block.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<string>() is not { Length: > 0 } text || text.Contains('[', StringComparison.Ordinal))
            {
                result.AddError("--block takes a block's name, such as minecraft:diamond_ore or legacy:56, without properties.");
            }
        });
        var where = QueryOption("Only in the chunks that match this query (see 'world chunks').");
        var (dimension, parallel) = (DimensionOption(), ParallelOption());
        var cluster = new ClusterJobArguments("world-find");
        var command = new Command("find", "Print where every block of a name is, as 'x y z state' lines, region by region as they are read.") { path, block, where, dimension, parallel };
        cluster.AddTo(command);
        command.SetAction(async (parsed, cancellationToken) =>
        {
            if (await JobOf(parsed, console, parallel, cluster, "finding") is not { } job)
            {
                return ExitCodes.Usage;
            }

            if (RegionsOf(parsed.GetValue(path)!, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var name = parsed.GetValue(block)!;
            name = name.Contains(':', StringComparison.Ordinal) ? name : "minecraft:" + name;
            var text = parsed.GetValue(where);
            var query = text is null ? null : ChunkQuery.Parse(text);
            await using var output = console.CreateTextOutput();
            return await job.RunAsync(
                regions,
                (region, token) => ValueTask.FromResult(RegionWork.Find(region, name, query, token)),
                async (region, found) =>
                {
                    for (var i = 0; i < found.StateOf.Length; i++)
                    {
                        var at = found.Positions.AsSpan(i * 3, 3);
                        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{at[0]} {at[1]} {at[2]} {found.States[found.StateOf[i]]}"));
                    }

                    await output.FlushAsync(cancellationToken);
                    return RegionJob.ReportChunkErrors(console, region, found.Failures);
                },
                cancellationToken,
                (region => RegionPayload("find", region, text, block: name), RegionBlocks.FromJson));
        });
        return command;
    }

    private static Command Chunks(CliConsole console)
    {
        var path = RegionsArgument();
        var where = QueryOption("The query: fields x, z, DataVersion, InhabitedTime, LastUpdate, Timestamp, Status and 'contains NAME'; and, or, not, parentheses (InhabitedTime < 5m and not contains minecraft:chest).", required: true);
        var (dimension, parallel) = (DimensionOption(), ParallelOption());
        var cluster = new ClusterJobArguments("world-chunks");
        var command = new Command("chunks", "Print the chunks that match a query, as 'x z' lines in chunk coordinates, region by region.") { path, where, dimension, parallel };
        cluster.AddTo(command);
        command.SetAction(async (parsed, cancellationToken) =>
        {
            if (await JobOf(parsed, console, parallel, cluster, "selecting") is not { } job)
            {
                return ExitCodes.Usage;
            }

            if (RegionsOf(parsed.GetValue(path)!, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var text = parsed.GetValue(where)!;
            var query = ChunkQuery.Parse(text);
            await using var output = console.CreateTextOutput();
            return await job.RunAsync(
                regions,
                (region, token) => ValueTask.FromResult(RegionWork.Select(region, query)),
                async (region, selected) =>
                {
                    foreach (var chunk in selected.Matches)
                    {
                        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{(selected.RegionX * 32) + chunk[0]} {(selected.RegionZ * 32) + chunk[1]}"));
                    }

                    await output.FlushAsync(cancellationToken);
                    return RegionJob.ReportChunkErrors(console, region, selected.Failures);
                },
                cancellationToken,
                (region => RegionPayload("chunks", region, text), RegionChunks.FromJson));
        });
        return command;
    }

    private static Command Prune(CliConsole console)
    {
        var path = RegionsArgument();
        var where = QueryOption("The chunks to delete, as a query (see 'world chunks').", required: true);
        var apply = new Option<bool>("--apply") { Description = "Delete them; without it, only say what would be deleted and freed." };
        var (dimension, parallel) = (DimensionOption(), ParallelOption());
        var cluster = new ClusterJobArguments("world-prune");
        var command = new Command("prune", "Delete the chunks that match a query (with their entities and points of interest) and lay each region file out again without gaps; a dry run unless --apply.")
        {
            path, where, apply, dimension, parallel,
        };
        cluster.AddTo(command);
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var applying = parsed.GetValue(apply);
            if (await JobOf(parsed, console, parallel, cluster, applying ? "pruning" : "selecting") is not { } job)
            {
                return ExitCodes.Usage;
            }

            if (RegionsOf(parsed.GetValue(path)!, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var text = parsed.GetValue(where)!;
            var query = ChunkQuery.Parse(text);
            var (chunks, deleted, freed, touched) = (0L, 0L, 0L, 0);
            await using var output = console.CreateTextOutput();
            var exitCode = await job.RunAsync(
                regions,
                (region, token) => RegionWork.PruneAsync(region, query, applying, console, token),
                async (region, pruned) =>
                {
                    chunks += pruned.Chunks;
                    if (pruned.Matches.Count > 0)
                    {
                        (deleted, freed, touched) = (deleted + pruned.Matches.Count, freed + pruned.Freed, touched + 1);
                        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{region}: {pruned.Matches.Count} of {pruned.Chunks} chunks, {pruned.Freed} bytes"));
                    }

                    return RegionJob.ReportChunkErrors(console, region, pruned.Failures);
                },
                cancellationToken,
                (region => RegionPayload("prune", region, text, applying), RegionChunks.FromJson));
            var summary = applying
                ? $"pruned {deleted} of {chunks} chunks in {touched} of {regions.Count} region files; {freed} bytes freed"
                : $"dry run: {deleted} of {chunks} chunks match in {touched} of {regions.Count} region files; deleting them would free {freed} bytes (--apply deletes them)";
            await output.WriteLineAsync(exitCode == ExitCodes.Interrupted ? "cancelled: " + summary + " so far" : summary);
            return exitCode;
        });
        return command;
    }

    // The verb's run, here or on the cluster --cluster names; null after a usage error (printed).
    private static async Task<RegionJob?> JobOf(ParseResult parsed, CliConsole console, Option<int> parallel, ClusterJobArguments cluster, string activity)
    {
        var (valid, submission) = await cluster.ReadAsync(parsed, console);
        if (!valid)
        {
            return null;
        }

        if (submission is not null && parsed.GetResult(parallel) is { Implicit: false })
        {
            // Each silo runs as many regions at once as it was started with: one number here could not mean that.
            await console.Error.WriteLineAsync("millrace: --parallel does not go with --cluster: each silo sets its own ('millrace cluster silo --parallel N').");
            return null;
        }

#if MILLRACE_CLUSTER
        return new RegionJob(console, parsed.GetValue(parallel), activity) { Cluster = submission };
#else
        return new RegionJob(console, parsed.GetValue(parallel), activity);
#endif
    }

#if MILLRACE_CLUSTER
    private static string RegionPayload(string verb, string region, string? query = null, bool apply = false, string? block = null) => new WorldRegionPayload(verb, region, query, apply, block).ToJson();
#else
    private static string RegionPayload(string verb, string region, string? query = null, bool apply = false, string? block = null) => throw new PlatformNotSupportedException(ClusterCommands.NotInThisBuild);
#endif

    private static (Argument<string> Path, Argument<int> X, Argument<int> Y, Argument<int> Z, Option<string> Dimension) BlockArguments() => (
        new Argument<string>("path") { Description = "The world's folder (the one holding level.dat)." },
        CliOptions.WholeNumberArgument("x", "The block's x.", -MaxHorizontal, MaxHorizontal),
        CliOptions.WholeNumberArgument("y", "The block's y.", MinHeight, MaxHeight),
        CliOptions.WholeNumberArgument("z", "The block's z.", -MaxHorizontal, MaxHorizontal),
        DimensionOption());

    private static Argument<string> RegionsArgument() => new("path") { Description = "A world's folder, a folder of region files, or one .mca file." };

    private static Option<int> ParallelOption() =>
        CliOptions.WholeNumber("--parallel", "Region files worked on at once (default: the number of processors).", 1, 1024, () => Environment.ProcessorCount);

    // A query that does not parse is a usage error (exit 2), located at its byte as every parse error is.
    private static Option<string?> QueryOption(string description, bool required = false)
    {
        var option = new Option<string?>("--where") { Description = description, Required = required };
        option.Validators.Add(result =>
        {
            try
            {
                if (result.GetValueOrDefault<string?>() is { } text)
                {
                    ChunkQuery.Parse(text);
                }
            }
            catch (NbtFormatException exception)
            {
                result.AddError($"--where: {exception.Code}: {exception.Message}");
            }
        });
        return option;
    }

    private static Option<string> DimensionOption() => new("--dimension")
    {
        Description = "The dimension, by id (minecraft:overworld, minecraft:the_nether, minecraft:the_end, or a datapack's namespace:path; default the overworld).",
        DefaultValueFactory = _ => "minecraft:overworld",
    };

    private static World? Open(string path, CliConsole console)
    {
        var levelDat = Path.Combine(path, "level.dat");
        if (File.Exists(levelDat) && !FileKind.IsRegularFile(levelDat))
        {
            console.ReportError(levelDat, new Error(CliErrorCodes.Open, "It is a device, pipe or socket, not a regular file."));
            return null;
        }

        try
        {
            return World.Open(path);
        }
        catch (Exception exception) when (CliErrors.From(exception) is not null)
        {
            // A folder without level.dat is the folder's fault; anything wrong with level.dat itself is named by it.
            console.Report(exception is FileNotFoundException ? path : levelDat, exception);
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
            // A folder of region files; one with neither them nor level.dat is not what the user meant to name.
            var listed = RegionFileEntry.List(path);
            if (listed.Count == 0)
            {
                console.ReportError(path, new Error(CliErrorCodes.Open, "The folder holds no level.dat and no region files (r.X.Z.mca): name a world's folder, a region folder or a region file."));
                return null;
            }

            return [.. listed.Select(r => r.Path)];
        }

        return Open(path, console) is { } world && DimensionOf(path, world, dimensionName, console) is { } dimension
            ? [.. dimension.Regions.Select(r => r.Path)]
            : null;
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

            // The chunk in the slot is the chunk of that place, whatever its xPos and zPos say, as the game reads it.
            return (document, regionPath, region, Chunk.Read(root, x >> 4, z >> 4));
        }
        catch (Exception exception) when (CliErrors.From(exception) is not null)
        {
            console.Report(regionPath, exception);
            return null;
        }
    }

    private static async Task WriteTextAsync(RegionCounts statistics, TextWriter output)
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

    private static async Task WriteJsonAsync(RegionCounts statistics, Stream output, CancellationToken cancellationToken)
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

}

using System.CommandLine;
using System.Globalization;
using System.Text.Json;
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

    // The folders beside a dimension's region/ whose region files hold the same chunks' entities and points of interest.
    private static readonly string[] CompanionFolders = ["entities", "poi"];

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
        var command = new Command("stats", "Count every block name (and biome) over a world, a folder of region files or one region file.") { path, dimension, json, parallel };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(path)!;
            if (RegionsOf(name, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var total = new WorldStatistics();
            var job = new RegionJob(console, parsed.GetValue(parallel), "counting");
            var exitCode = await job.RunAsync(
                regions,
                (region, token) => ValueTask.FromResult(Count(region, token)),
                (region, counted) =>
                {
                    total.Add(counted.Statistics);
                    return ValueTask.FromResult(RegionJob.ReportChunkErrors(console, region, counted.ChunkErrors));
                },
                cancellationToken);
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
        var where = QueryOption("Only in the chunks that match this query (see 'world chunks').");
        var (dimension, parallel) = (DimensionOption(), ParallelOption());
        var command = new Command("find", "Print where every block of a name is, as 'x y z state' lines, region by region as they are read.") { path, block, where, dimension, parallel };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            if (RegionsOf(parsed.GetValue(path)!, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var name = parsed.GetValue(block)!;
            name = name.Contains(':', StringComparison.Ordinal) ? name : "minecraft:" + name;
            var query = parsed.GetValue(where) is { } text ? ChunkQuery.Parse(text) : null;
            await using var output = console.CreateTextOutput();
            var job = new RegionJob(console, parsed.GetValue(parallel), "finding");
            return await job.RunAsync(
                regions,
                (region, token) => ValueTask.FromResult(FindIn(region, name, query, token)),
                async (region, found) =>
                {
                    foreach (var (x, y, z, state) in found.Blocks)
                    {
                        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{x} {y} {z} {state}"));
                    }

                    await output.FlushAsync(cancellationToken);
                    return RegionJob.ReportChunkErrors(console, region, found.ChunkErrors);
                },
                cancellationToken);
        });
        return command;
    }

    private static Command Chunks(CliConsole console)
    {
        var path = RegionsArgument();
        var where = QueryOption("The query: fields x, z, DataVersion, InhabitedTime, LastUpdate, Timestamp, Status and 'contains NAME'; and, or, not, parentheses (InhabitedTime < 5m and not contains minecraft:chest).", required: true);
        var (dimension, parallel) = (DimensionOption(), ParallelOption());
        var command = new Command("chunks", "Print the chunks that match a query, as 'x z' lines in chunk coordinates, region by region.") { path, where, dimension, parallel };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            if (RegionsOf(parsed.GetValue(path)!, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var query = ChunkQuery.Parse(parsed.GetValue(where)!);
            await using var output = console.CreateTextOutput();
            var job = new RegionJob(console, parsed.GetValue(parallel), "selecting");
            return await job.RunAsync(
                regions,
                (region, token) => ValueTask.FromResult(Select(region, query)),
                async (region, selected) =>
                {
                    foreach (var chunk in selected.Selection.Matches)
                    {
                        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{(selected.X * 32) + chunk.X} {(selected.Z * 32) + chunk.Z}"));
                    }

                    await output.FlushAsync(cancellationToken);
                    return RegionJob.ReportChunkErrors(console, region, selected.Selection.Errors);
                },
                cancellationToken);
        });
        return command;
    }

    private static Command Prune(CliConsole console)
    {
        var path = RegionsArgument();
        var where = QueryOption("The chunks to delete, as a query (see 'world chunks').", required: true);
        var apply = new Option<bool>("--apply") { Description = "Delete them; without it, only say what would be deleted and freed." };
        var (dimension, parallel) = (DimensionOption(), ParallelOption());
        var command = new Command("prune", "Delete the chunks that match a query (with their entities and points of interest) and lay each region file out again without gaps; a dry run unless --apply.")
        {
            path, where, apply, dimension, parallel,
        };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            if (RegionsOf(parsed.GetValue(path)!, parsed.GetValue(dimension)!, console) is not { } regions)
            {
                return ExitCodes.BadInput;
            }

            var query = ChunkQuery.Parse(parsed.GetValue(where)!);
            var applying = parsed.GetValue(apply);
            var (chunks, deleted, freed, touched) = (0L, 0L, 0L, 0);
            await using var output = console.CreateTextOutput();
            var job = new RegionJob(console, parsed.GetValue(parallel), applying ? "pruning" : "selecting");
            var exitCode = await job.RunAsync(
                regions,
                (region, token) => PruneAsync(region, query, applying, console, token),
                async (region, pruned) =>
                {
                    chunks += pruned.Selection.Chunks;
                    if (pruned.Freed is { } bytes && pruned.Selection.Matches.Count > 0)
                    {
                        (deleted, freed, touched) = (deleted + pruned.Selection.Matches.Count, freed + bytes, touched + 1);
                        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{region}: {pruned.Selection.Matches.Count} of {pruned.Selection.Chunks} chunks, {bytes} bytes"));
                    }

                    return RegionJob.ReportChunkErrors(console, region, pruned.Selection.Errors) + (pruned.Freed is null ? 1 : 0);
                },
                cancellationToken);
            var summary = applying
                ? $"pruned {deleted} of {chunks} chunks in {touched} of {regions.Count} region files; {freed} bytes freed"
                : $"dry run: {deleted} of {chunks} chunks match in {touched} of {regions.Count} region files; deleting them would free {freed} bytes (--apply deletes them)";
            await output.WriteLineAsync(exitCode == ExitCodes.Interrupted ? "cancelled: " + summary + " so far" : summary);
            return exitCode;
        });
        return command;
    }

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

    private static RegionFile OpenRegion(string regionPath) =>
        FileKind.IsRegularFile(regionPath)
            ? RegionFile.Open(regionPath)
            : throw new CliException(CliErrorCodes.Open, "It is a device, pipe or socket, not a regular file.");

    // A region's coordinates from its name; a query on x or z alone cannot place the chunks of a file named otherwise.
    private static (int X, int Z) PositionOf(string regionPath, ChunkQuery query) =>
        RegionFileEntry.TryParse(Path.GetFileName(regionPath), out var x, out var z) ? (x, z)
        : query.RequiresChunkData ? (0, 0)
        : throw new CliException(CliErrorCodes.Open, "The file is not named r.X.Z.mca, so the query cannot tell where its chunks are.");

    private static SelectedChunks Select(string regionPath, ChunkQuery query)
    {
        var region = OpenRegion(regionPath);
        var (x, z) = PositionOf(regionPath, query);
        return new SelectedChunks(x, z, query.Select(region, x, z));
    }

    private static FoundBlocks FindIn(string regionPath, string name, ChunkQuery? query, CancellationToken cancellationToken)
    {
        var region = OpenRegion(regionPath);
        var found = new FoundBlocks([], []);
        foreach (var entry in region.Chunks)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                if (region.ReadChunk(entry.X, entry.Z)?.Root is NbtCompound root && Chunk.Read(root) is var chunk && (query is null || query.Matches(chunk, entry.Timestamp)))
                {
                    found.Blocks.AddRange(chunk.FindBlocks(name));
                }
            }
            catch (MillraceException exception)
            {
                found.ChunkErrors.Add(new RegionChunkError(entry.X, entry.Z, exception.Error));
            }
        }

        return found;
    }

    /// <summary>
    /// Deletes a region's matching chunks, and the same chunks' entities and points of interest (1.17+ keeps them in
    /// region files of the same name under <c>entities/</c> and <c>poi/</c>), writing each file atomically; a file left
    /// with no chunk is removed, as is the <c>.mcc</c> file of a deleted chunk. Without <paramref name="apply"/>, only
    /// measures. A chunk that cannot be read is kept.
    /// </summary>
    private static async ValueTask<PrunedRegion> PruneAsync(string regionPath, ChunkQuery query, bool apply, CliConsole console, CancellationToken cancellationToken)
    {
        var opened = OpenRegion(regionPath);
        var (x, z) = PositionOf(regionPath, query);
        var selection = query.Select(opened, x, z);
        var positions = selection.Matches.Select(c => (c.X, c.Z)).ToList();
        if (positions.Count == 0)
        {
            return new PrunedRegion(selection, 0);
        }

        var freed = 0L;
        var files = new List<string> { regionPath };
        if (Path.GetFileName(Path.GetDirectoryName(Path.GetFullPath(regionPath))) == "region")
        {
            var dimension = Path.GetDirectoryName(Path.GetDirectoryName(Path.GetFullPath(regionPath)))!;
            files.AddRange(CompanionFolders.Select(folder => Path.Combine(dimension, folder, Path.GetFileName(regionPath))).Where(File.Exists));
        }

        foreach (var file in files)
        {
            var region = file == regionPath ? opened : OpenRegion(file);
            if (await DeleteChunksAsync(file, region, positions, apply, console, cancellationToken) is not { } bytes)
            {
                return new PrunedRegion(selection, null);
            }

            freed += bytes;
        }

        return new PrunedRegion(selection, freed);
    }

    // The bytes deleting the chunks frees (or would free), or null when the file could not be written (reported).
    private static async ValueTask<long?> DeleteChunksAsync(string path, RegionFile region, List<(int X, int Z)> positions, bool apply, CliConsole console, CancellationToken cancellationToken)
    {
        var before = new FileInfo(path).Length;
        var externals = new List<string>();
        foreach (var chunk in region.Chunks.Where(c => positions.Contains((c.X, c.Z))).ToList())
        {
            if (chunk.IsExternal && File.Exists(RegionFile.ExternalChunkPath(path, chunk.X, chunk.Z)))
            {
                externals.Add(RegionFile.ExternalChunkPath(path, chunk.X, chunk.Z));
                before += new FileInfo(externals[^1]).Length;
            }

            region.DeleteChunk(chunk.X, chunk.Z);
        }

        var empty = !region.Chunks.Any();
        if (!apply)
        {
            return before - (empty ? 0 : region.ToArray(static (_, _, _) => { }).LongLength);
        }

        if (empty)
        {
            File.Delete(path);
        }
        else if (!await Nbt.NbtCommands.SaveAsync(region, path, console, cancellationToken))
        {
            return null;
        }

        foreach (var external in externals)
        {
            File.Delete(external);
        }

        return before - (empty ? 0 : new FileInfo(path).Length);
    }

    // One region's counts; a chunk that cannot be read is reported, located by its coordinates, and the others counted.
    private static RegionCount Count(string regionPath, CancellationToken cancellationToken)
    {
        var region = OpenRegion(regionPath);
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
                counted.ChunkErrors.Add(new RegionChunkError(entry.X, entry.Z, exception.Error));
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
    private sealed record RegionCount(WorldStatistics Statistics, List<RegionChunkError> ChunkErrors);

    /// <summary>A region's blocks of one name, and the chunks of it that could not be read.</summary>
    private sealed record FoundBlocks(List<FoundBlock> Blocks, List<RegionChunkError> ChunkErrors);

    /// <summary>What a query selected in a region, and the region's position.</summary>
    private sealed record SelectedChunks(int X, int Z, RegionSelection Selection);

    /// <summary>What a query selected in a region and the bytes deleting it freed (or would), or null when a file could not be written.</summary>
    private sealed record PrunedRegion(RegionSelection Selection, long? Freed);
}

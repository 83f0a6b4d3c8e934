using System.Text.Json;
using System.Text.Json.Serialization;
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Cli.Worlds;

/// <summary>
/// What a whole-world verb does to one region file, in this process or on a silo (<c>--cluster</c>): the same functions,
/// the same results. A result is plain data that travels as JSON, so a verb prints the regions it read itself and those a
/// silo read in one way.
/// </summary>
internal static class RegionWork
{
    // The folders beside a dimension's region/ whose region files hold the same chunks' entities and points of interest.
    private static readonly string[] CompanionFolders = ["entities", "poi"];

    /// <summary>One region's counts; a chunk that cannot be read is listed, and the others counted.</summary>
    public static RegionCounts Count(string regionPath, CancellationToken cancellationToken)
    {
        var statistics = new WorldStatistics();
        var failures = ForEachChunk(regionPath, (chunk, _) => statistics.Add(chunk), cancellationToken);
        return new RegionCounts(statistics.Chunks, statistics.Sections, new(statistics.Blocks, StringComparer.Ordinal), new(statistics.Biomes, StringComparer.Ordinal), failures);
    }

    /// <summary>
    /// Gives every chunk of a region to <paramref name="visit"/>, with its header entry, and returns the chunks that could
    /// not be read (their place in the file damaged, their data malformed, or <paramref name="visit"/> refusing them):
    /// each is listed by its coordinates and the others go on.
    /// </summary>
    public static List<ChunkFailure> ForEachChunk(string regionPath, Action<Chunk, RegionChunk> visit, CancellationToken cancellationToken)
    {
        var damaged = new List<RegionChunkError>();
        var region = OpenRegion(regionPath, damaged);
        var failures = damaged.Select(ChunkFailure.From).ToList();
        // A chunk is where its slot is, as the game reads it.
        var (regionX, regionZ) = RegionOf(regionPath);
        foreach (var entry in region.Chunks)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                if (region.ReadChunk(entry.X, entry.Z)?.Root is NbtCompound root)
                {
                    visit(Chunk.Read(root, (regionX * 32) + entry.X, (regionZ * 32) + entry.Z), entry);
                }
            }
            catch (MillraceException exception)
            {
                failures.Add(ChunkFailure.From(new RegionChunkError(entry.X, entry.Z, exception.Error)));
            }
        }

        return failures;
    }

    /// <summary>Where the blocks of a name are in one region, in the chunks a query matches (all without one).</summary>
    public static RegionBlocks Find(string regionPath, string name, ChunkQuery? query, CancellationToken cancellationToken)
    {
        var positions = new List<int>();
        var stateOf = new List<int>();
        var states = new Dictionary<BlockState, int>();
        var texts = new List<string>();
        var failures = ForEachChunk(
            regionPath,
            (chunk, entry) =>
            {
                if (query is not null && !query.Matches(chunk, entry.Timestamp))
                {
                    return;
                }

                foreach (var (x, y, z, state) in chunk.FindBlocks(name))
                {
                    positions.AddRange([x, y, z]);
                    if (!states.TryGetValue(state, out var index))
                    {
                        states[state] = index = texts.Count;
                        texts.Add(state.ToString());
                    }

                    stateOf.Add(index);
                }
            },
            cancellationToken);
        return new RegionBlocks([.. positions], [.. texts], [.. stateOf], failures);
    }

    /// <summary>The chunks of a region a query selects.</summary>
    public static RegionChunks Select(string regionPath, ChunkQuery query)
    {
        var damaged = new List<RegionChunkError>();
        var region = OpenRegion(regionPath, damaged);
        var (x, z) = PositionOf(regionPath, query);
        var selected = RegionChunks.From(x, z, query.Select(region, x, z), 0);
        return selected with { Chunks = selected.Chunks + damaged.Count, Failures = [.. damaged.Select(ChunkFailure.From), .. selected.Failures] };
    }

    /// <summary>
    /// Deletes a region's matching chunks, and the same chunks' entities and points of interest (1.17+ keeps them in
    /// region files of the same name under <c>entities/</c> and <c>poi/</c>), writing each file atomically; a file left
    /// with no chunk is removed, as is the <c>.mcc</c> file of a deleted chunk. Without <paramref name="apply"/>, only
    /// measures what it would free. A chunk that cannot be read is kept.
    /// </summary>
    /// <exception cref="CliException">A file could not be written where it is.</exception>
    /// <exception cref="IOException">A write failed.</exception>
    /// <remarks>
    /// Every file is read before any is written, so a companion that cannot be read fails the region with nothing
    /// changed; the region file is written last, so a failure (or a crash) between the files leaves the region's chunks
    /// in place and a second prune finishes the job, where the other order would strand the companions' data for good.
    /// </remarks>
    public static async ValueTask<RegionChunks> PruneAsync(string regionPath, ChunkQuery query, bool apply, CliConsole console, CancellationToken cancellationToken)
    {
        var (x, z) = PositionOf(regionPath, query);
        // A link's target is the file read, measured, written and (emptied) deleted, as the atomic writer writes through it.
        regionPath = OutputFile.FinalTarget(regionPath);
        var opened = OpenRegion(regionPath);
        var selection = query.Select(opened, x, z);
        var positions = selection.Matches.Select(c => (c.X, c.Z)).ToList();
        var freed = 0L;
        if (positions.Count > 0)
        {
            var files = new List<(string Path, RegionFile Region)>();
            var folder = Path.GetDirectoryName(Path.GetFullPath(regionPath))!;
            if (Path.GetFileName(folder) == "region")
            {
                foreach (var companion in CompanionFolders.Select(name => Path.Combine(Path.GetDirectoryName(folder)!, name, Path.GetFileName(regionPath))).Where(File.Exists))
                {
                    var resolved = OutputFile.FinalTarget(companion);
                    try
                    {
                        files.Add((resolved, OpenRegion(resolved)));
                    }
                    catch (MillraceException exception)
                    {
                        // Reported against the region, so say which file it is about.
                        throw new MillraceException(exception.Error with { Message = $"Its companion {companion} cannot be read, so nothing was pruned: {exception.Error.Message}" });
                    }
                }
            }

            files.Add((regionPath, opened));
            foreach (var (file, region) in files)
            {
                freed += await DeleteChunksAsync(file, region, positions, apply, console, cancellationToken);
            }
        }

        return RegionChunks.From(x, z, selection, freed);
    }


    /// <summary>
    /// Opens a region file, refusing a special file. With <paramref name="damaged"/>, for verbs that only read, a chunk
    /// whose place in the file is damaged is left out and listed there rather than failing the region (one that writes
    /// opens it whole or not at all: a region saved without such a chunk would lose it).
    /// </summary>
    public static RegionFile OpenRegion(string regionPath, List<RegionChunkError>? damaged = null) =>
        FileKind.IsRegularFile(regionPath)
            ? RegionFile.Open(regionPath, damaged)
            : throw new CliException(CliErrorCodes.Open, "It is a device, pipe or socket, not a regular file.");

    // A region's coordinates from its name; a file named otherwise is read as region 0,0 by every verb.
    private static (int X, int Z) RegionOf(string regionPath) =>
        RegionFileEntry.TryParse(Path.GetFileName(regionPath), out var x, out var z) ? (x, z) : (0, 0);

    // The same, for a query: one on x or z alone cannot place the chunks of a file not named r.X.Z.mca.
    private static (int X, int Z) PositionOf(string regionPath, ChunkQuery query) =>
        query.RequiresChunkData || RegionFileEntry.TryParse(Path.GetFileName(regionPath), out _, out _)
            ? RegionOf(regionPath)
            : throw new CliException(CliErrorCodes.Open, "The file is not named r.X.Z.mca, so the query cannot tell where its chunks are.");

    // The bytes deleting the chunks frees (or would free).
    private static async ValueTask<long> DeleteChunksAsync(string path, RegionFile region, List<(int X, int Z)> positions, bool apply, CliConsole console, CancellationToken cancellationToken)
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
        else
        {
            await Nbt.NbtCommands.WriteRegionAsync(region, path, console, cancellationToken);
        }

        foreach (var external in externals)
        {
            File.Delete(external);
        }

        return before - (empty ? 0 : new FileInfo(path).Length);
    }
}

/// <summary>A chunk that could not be read, as it travels: its position in the region and its error, without the exception.</summary>
internal sealed record ChunkFailure(int X, int Z, string Code, string Message, string? Path, long? ByteOffset, string? OffsetScope)
{
    public static ChunkFailure From(RegionChunkError failure) =>
        new(failure.X, failure.Z, failure.Error.Code, failure.Error.Message, failure.Error.Path, failure.Error.ByteOffset, failure.Error.OffsetScope);

    public Error ToError() => new(Code, Message) { Path = Path, ByteOffset = ByteOffset, OffsetScope = OffsetScope };
}

/// <summary>One region's counts (<c>world stats</c>).</summary>
internal sealed record RegionCounts(long Chunks, long Sections, Dictionary<string, long> Blocks, Dictionary<string, long> Biomes, List<ChunkFailure> Failures)
{
    /// <summary>These counts and another's together (the failures are each region's own, reported as it is read).</summary>
    public RegionCounts Add(RegionCounts other)
    {
        foreach (var (name, count) in other.Blocks)
        {
            Blocks[name] = Blocks.GetValueOrDefault(name) + count;
        }

        foreach (var (name, count) in other.Biomes)
        {
            Biomes[name] = Biomes.GetValueOrDefault(name) + count;
        }

        return this with { Chunks = Chunks + other.Chunks, Sections = Sections + other.Sections };
    }

    public string ToJson() => JsonSerializer.Serialize(this, RegionWorkJson.Default.RegionCounts);

    public static RegionCounts FromJson(string json) => JsonSerializer.Deserialize(json, RegionWorkJson.Default.RegionCounts) ?? throw new JsonException("An empty result.");
}

/// <summary>The chunks a query selected in one region (<c>world chunks</c>, <c>world prune</c>), and the bytes deleting them frees.</summary>
internal sealed record RegionChunks(int RegionX, int RegionZ, int Chunks, List<int[]> Matches, List<ChunkFailure> Failures, long Freed)
{
    public static RegionChunks From(int x, int z, RegionSelection selection, long freed) =>
        new(x, z, selection.Chunks, [.. selection.Matches.Select(c => new[] { c.X, c.Z })], [.. selection.Errors.Select(ChunkFailure.From)], freed);

    public string ToJson() => JsonSerializer.Serialize(this, RegionWorkJson.Default.RegionChunks);

    public static RegionChunks FromJson(string json) => JsonSerializer.Deserialize(json, RegionWorkJson.Default.RegionChunks) ?? throw new JsonException("An empty result.");
}

/// <summary>
/// The blocks of one name in one region (<c>world find</c>), in the order the region's chunks and sections hold them:
/// each block's x, y and z one after another in <see cref="Positions"/>, and its state as an index into
/// <see cref="States"/> (each state's text once), so that a region's result stays small on its way from a silo.
/// </summary>
internal sealed record RegionBlocks(int[] Positions, string[] States, int[] StateOf, List<ChunkFailure> Failures)
{
    public string ToJson() => JsonSerializer.Serialize(this, RegionWorkJson.Default.RegionBlocks);

    public static RegionBlocks FromJson(string json) => JsonSerializer.Deserialize(json, RegionWorkJson.Default.RegionBlocks) ?? throw new JsonException("An empty result.");
}

[JsonSerializable(typeof(RegionBlocks))]
[JsonSerializable(typeof(RegionCounts))]
[JsonSerializable(typeof(RegionChunks))]
internal sealed partial class RegionWorkJson : JsonSerializerContext;

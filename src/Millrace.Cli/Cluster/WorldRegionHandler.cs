#if MILLRACE_CLUSTER
using System.Text.Json;
using System.Text.Json.Serialization;
using Millrace.Cli.Worlds;
using Millrace.Cluster.Jobs;
using Millrace.Nbt.Worlds;

namespace Millrace.Cli.Cluster;

/// <summary>What one region of a clustered world verb asks of a silo: the verb, the region file (a path every silo sees)
/// and the verb's query.</summary>
/// <param name="Verb">stats, find, chunks or prune.</param>
/// <param name="Region">The region file.</param>
/// <param name="Query">The chunk query, for chunks and prune (and find's, when it has one).</param>
/// <param name="Apply">Whether prune deletes (otherwise it measures).</param>
/// <param name="Block">The block's name, for find.</param>
internal sealed record WorldRegionPayload(string Verb, string Region, string? Query = null, bool Apply = false, string? Block = null)
{
    public string ToJson() => JsonSerializer.Serialize(this, WorldRegionJson.Default.WorldRegionPayload);

    public static WorldRegionPayload FromJson(string json) =>
        JsonSerializer.Deserialize(json, WorldRegionJson.Default.WorldRegionPayload) ?? throw new InvalidOperationException("An empty region payload.");
}

[JsonSerializable(typeof(WorldRegionPayload))]
internal sealed partial class WorldRegionJson : JsonSerializerContext;

/// <summary>
/// The built-in handler of clustered world verbs, registered as <see cref="Name"/> on every <c>millrace cluster silo</c>:
/// one region as the verb does it in one process (<see cref="RegionWork"/>), its result returned as JSON for the
/// submitter to print. Idempotent: stats, find and chunks only read; prune writes each file atomically, and a region pruned
/// twice is pruned once (its matching chunks are gone the second time).
/// </summary>
internal sealed class WorldRegionHandler(CliConsole console) : IWorkItemHandler
{
    public const string Name = "world";

    public ValueTask HandleAsync(WorkItem item, CancellationToken cancellationToken) => throw new NotSupportedException("The workers ask for the region's result.");

    public async ValueTask<string?> HandleWithResultAsync(WorkItem item, CancellationToken cancellationToken)
    {
        var payload = WorldRegionPayload.FromJson(item.Payload);
        return payload.Verb switch
        {
            "stats" => RegionWork.Count(payload.Region, cancellationToken).ToJson(),
            "find" => RegionWork.Find(payload.Region, payload.Block ?? throw new InvalidOperationException("A find payload names no block."), payload.Query is { } query ? ChunkQuery.Parse(query) : null, cancellationToken).ToJson(),
            "chunks" => RegionWork.Select(payload.Region, ChunkQuery.Parse(payload.Query!)).ToJson(),
            "prune" => (await RegionWork.PruneAsync(payload.Region, ChunkQuery.Parse(payload.Query!), payload.Apply, console, cancellationToken)).ToJson(),
            _ => throw new InvalidOperationException($"'{payload.Verb}' is not a world verb a silo runs."),
        };
    }

    /// <summary>Retries what is worth it: an I/O error, as a batch's file.</summary>
    public bool ShouldRetry(Exception exception) => Batch.FileConversion.IsTransient(exception);

    /// <summary>Records a failure as the verb in one process reports it.</summary>
    public Error? DescribeFailure(Exception exception) => CliErrors.Describe(exception);
}
#endif

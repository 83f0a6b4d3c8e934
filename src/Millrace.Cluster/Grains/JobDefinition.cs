using Millrace.Cluster.Jobs;

namespace Millrace.Cluster.Grains;

/// <summary>What a job is: everything but its items and outcomes, which live in its partitions.</summary>
/// <param name="JobId">The job's name.</param>
/// <param name="Handler">The name its items' handler is registered under on every silo.</param>
/// <param name="Options">Its leases, retries and timeouts.</param>
/// <param name="Total">How many items it has.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.job-definition")]
internal sealed record JobDefinition(string JobId, string Handler, ClusterJobOptions Options, long Total)
{
    /// <summary>Gets how many partitions hold its items.</summary>
    public int Partitions => (int)((Total + ClusterJobConstants.PartitionSize - 1) / ClusterJobConstants.PartitionSize);

    /// <summary>The key of one of its partitions' grains.</summary>
    public string PartitionKey(int partition) => PartitionKeyOf(JobId, partition);

    /// <summary>Gets how many items a partition holds: <see cref="ClusterJobConstants.PartitionSize"/>, fewer in the last.</summary>
    public int PartitionItems(int partition) => (int)Math.Min(ClusterJobConstants.PartitionSize, Total - ((long)partition * ClusterJobConstants.PartitionSize));

    /// <summary>The key of a partition's grain: job names may not hold <c>/</c>, so the key is unambiguous.</summary>
    public static string PartitionKeyOf(string jobId, int partition) => $"{jobId}/{partition}";
}

/// <summary>A lease: items of one partition handed to one silo until it completes them or the lease expires.</summary>
/// <param name="Id">The lease's identity, to renew and complete it.</param>
/// <param name="Items">The leased items with their indices in the job.</param>
/// <param name="Expires">When it expires unless renewed.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.lease")]
internal sealed record Lease(Guid Id, IReadOnlyList<LeasedItem> Items, DateTimeOffset Expires);

/// <summary>One leased item.</summary>
/// <param name="Index">Its zero-based position in the job.</param>
/// <param name="Item">The item.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.leased-item")]
internal sealed record LeasedItem(long Index, WorkItem Item);

/// <summary>How one leased item ended, as its silo reports it.</summary>
/// <param name="Index">Its zero-based position in the job.</param>
/// <param name="Error">Why it failed, or <see langword="null"/> when it succeeded.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.item-report")]
internal sealed record ItemReport(long Index, Error? Error);

/// <summary>One partition's counts.</summary>
[GenerateSerializer]
[Immutable]
[Alias("millrace.partition-counts")]
internal sealed record PartitionCounts(int Total, int Leased, int Succeeded, int Failed, bool Cancelled, IReadOnlyDictionary<string, long> CompletedBySilo);

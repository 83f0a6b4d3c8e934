namespace Millrace.Cluster.Jobs;

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

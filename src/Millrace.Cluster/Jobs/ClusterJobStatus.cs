namespace Millrace.Cluster.Jobs;

/// <summary>A cluster job's counts at one moment, summed over its partitions.</summary>
/// <param name="JobId">The job's name.</param>
/// <param name="Handler">The name of the handler its items run with.</param>
/// <param name="State">Where the job is in its life.</param>
/// <param name="Total">How many items it has.</param>
/// <param name="Leased">How many are leased to a silo now, running or about to.</param>
/// <param name="Succeeded">How many succeeded.</param>
/// <param name="Failed">How many failed after their retries.</param>
/// <param name="CompletedBySilo">How many outcomes each silo recorded, by silo name.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.cluster-job-status")]
public sealed record ClusterJobStatus(
    string JobId,
    string Handler,
    ClusterJobState State,
    long Total,
    long Leased,
    long Succeeded,
    long Failed,
    IReadOnlyDictionary<string, long> CompletedBySilo)
{
    /// <summary>Gets how many items have no outcome yet, leased or not.</summary>
    public long Remaining => Total - Succeeded - Failed;
}

namespace Millrace.Cluster.Jobs;

/// <summary>Where a cluster job is in its life.</summary>
[GenerateSerializer]
[Alias("millrace.cluster-job-state")]
public enum ClusterJobState
{
    /// <summary>No job of that name was ever submitted.</summary>
    Unknown,

    /// <summary>Some items have no outcome yet.</summary>
    Running,

    /// <summary>Every item has an outcome (success or failure).</summary>
    Completed,

    /// <summary>Cancelled before every item had an outcome: no item is leased any more; the outcomes recorded are kept.</summary>
    Cancelled,

    /// <summary>
    /// Stopped by its first failure (<see cref="Parallel.ErrorMode.FailFast"/>): no item is leased any more; the outcomes
    /// recorded are kept.
    /// </summary>
    Failed,
}

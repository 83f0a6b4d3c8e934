namespace Millrace.Cluster.Jobs;

/// <summary>The documented defaults and limits of <see cref="ClusterJobOptions"/>.</summary>
public static class ClusterJobConstants
{
    /// <summary>The default number of items a silo leases at once.</summary>
    /// <value>8: small enough that a dead silo strands little work, large enough that a lease round trip is shared by several items.</value>
    public const int LeaseSize = 8;

    /// <summary>The default time a lease lasts without renewal; a silo renews its leases three times per this period.</summary>
    /// <value>30 seconds.</value>
    public static readonly TimeSpan LeaseTimeout = TimeSpan.FromSeconds(30);

    /// <summary>The default number of retries of a failed item, on the silo that leased it.</summary>
    /// <value>2.</value>
    public const int MaxRetryAttempts = 2;

    /// <summary>The default delay before the first retry; later ones back off exponentially.</summary>
    /// <value>200 milliseconds.</value>
    public static readonly TimeSpan RetryDelay = TimeSpan.FromMilliseconds(200);

    /// <summary>The most items a job may have.</summary>
    /// <value>10,000,000.</value>
    public const int MaxItems = 10_000_000;

    /// <summary>How many items each of a job's partitions holds: a partition is one grain, persisted as a unit.</summary>
    /// <value>1,024.</value>
    public const int PartitionSize = 1_024;
}

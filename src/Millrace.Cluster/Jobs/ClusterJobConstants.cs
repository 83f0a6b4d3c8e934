using Millrace.Parallel;

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

    /// <summary>The shortest lease a job may have: a silo renews its leases three times per lease timeout.</summary>
    /// <value>1 second.</value>
    public static readonly TimeSpan MinLeaseTimeout = TimeSpan.FromSeconds(1);

    /// <summary>What a job does when an item fails after its retries.</summary>
    /// <value>
    /// <see cref="ErrorMode.CollectAndContinue"/>, not Parallel's <see cref="ErrorMode.FailFast"/>: a batch job that runs
    /// for hours across machines wants every item tried, its failures in its report.
    /// </value>
    public const ErrorMode ErrorMode = Parallel.ErrorMode.CollectAndContinue;

    /// <summary>The most items a job may have.</summary>
    /// <value>10,000,000.</value>
    public const int MaxItems = 10_000_000;

    /// <summary>How many items each of a job's partitions holds: a partition is one grain, persisted as a unit.</summary>
    /// <value>1,024.</value>
    public const int PartitionSize = 1_024;

    /// <summary>The longest result an item's handler may return: results are recorded and persisted with the outcomes.</summary>
    /// <value>65,536 characters.</value>
    public const int MaxResultLength = 65_536;
}

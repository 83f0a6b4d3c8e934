namespace Millrace.Cluster.Jobs;

/// <summary>Up to <see cref="ClusterJobConstants.PartitionSize"/> items of a job with their outcomes, keyed <c>job/partition</c>.</summary>
[Alias("millrace.IJobPartitionGrain")]
internal interface IJobPartitionGrain : IGrainWithStringKey
{
    /// <summary>Stores the partition's items; the same items again are accepted (a retried submission).</summary>
    [Alias("init")]
    Task InitializeAsync(JobDefinition definition, int partition, long firstIndex, IReadOnlyList<WorkItem> items);

    /// <summary>Leases up to <paramref name="max"/> items without an outcome to <paramref name="silo"/>, after taking back expired leases.</summary>
    /// <returns>The lease, or <see langword="null"/> when no item is free (or the job was cancelled).</returns>
    [Alias("take")]
    Task<Lease?> TakeLeaseAsync(string silo, int max);

    /// <summary>Extends a lease by the job's lease timeout.</summary>
    /// <returns><see langword="false"/> when the lease expired (its items may be leased again) or the job was cancelled.</returns>
    [Alias("renew")]
    Task<bool> RenewAsync(Guid leaseId);

    /// <summary>Records the outcomes a silo reports and ends the lease. An item that already has an outcome keeps it (first completion wins).</summary>
    [Alias("complete")]
    Task CompleteAsync(Guid leaseId, string silo, IReadOnlyList<ItemReport> reports);

    /// <summary>Gets the partition's counts.</summary>
    [Alias("counts")]
    Task<PartitionCounts> GetCountsAsync();

    /// <summary>Reads recorded outcomes in the order they were recorded, from position <paramref name="from"/>.</summary>
    [Alias("outcomes")]
    Task<IReadOnlyList<JobItemOutcome>> ReadOutcomesAsync(int from, int max);

    /// <summary>Stops leasing and recording: leases in flight fail to renew, and their reports are not recorded.</summary>
    [Alias("cancel")]
    Task CancelAsync();
}

using Orleans.Concurrency;

namespace Millrace.Cluster.Grains;

/// <summary>A job's coordinator, keyed by the job's name: its definition, its life and its status.</summary>
[Alias("millrace.IJobGrain")]
internal interface IJobGrain : IGrainWithStringKey
{
    /// <summary>Records the definition of a job about to be submitted; the same definition again is accepted (a retried submission).</summary>
    /// <returns><see langword="false"/> when a different job of that name exists.</returns>
    [Alias("prepare")]
    Task<bool> PrepareAsync(JobDefinition definition);

    /// <summary>Starts a prepared job once every partition holds its items: silos may lease them from now on.</summary>
    [Alias("start")]
    Task StartAsync();

    /// <summary>Gets the job's definition, or <see langword="null"/> when none was submitted.</summary>
    [Alias("definition")]
    Task<JobDefinition?> GetDefinitionAsync();

    /// <summary>Gets the job's counts, summed over its partitions.</summary>
    [Alias("status")]
    Task<Jobs.ClusterJobStatus> GetStatusAsync();

    /// <summary>Cancels the job: no item is leased after this; outcomes already recorded are kept.</summary>
    [Alias("cancel")]
    Task CancelAsync();

    /// <summary>
    /// A partition reports that every one of its items has an outcome. One-way: a partition never waits on its job, so the
    /// job can call its partitions at any time without the two waiting on each other; a report lost with a silo is sent
    /// again when the partition is next activated, and the job's status also completes it.
    /// </summary>
    [Alias("partition-done")]
    [OneWay]
    Task PartitionDoneAsync(int partition);

    /// <summary>
    /// A partition of a <see cref="Parallel.ErrorMode.FailFast"/> job recorded a failure: the job stops leasing and ends
    /// <see cref="Jobs.ClusterJobState.Failed"/>. One-way, like <see cref="PartitionDoneAsync"/>.
    /// </summary>
    [Alias("item-failed")]
    [OneWay]
    Task ItemFailedAsync();
}

/// <summary>Where silos find the jobs that have work: the running jobs' definitions, in one grain.</summary>
[Alias("millrace.IJobDirectoryGrain")]
internal interface IJobDirectoryGrain : IGrainWithIntegerKey
{
    /// <summary>Adds a running job.</summary>
    [Alias("add")]
    Task AddAsync(JobDefinition definition);

    /// <summary>Removes a job that ended: completed, cancelled or failed.</summary>
    [Alias("remove")]
    Task RemoveAsync(string jobId);

    /// <summary>Lists the running jobs.</summary>
    [Alias("list")]
    Task<IReadOnlyList<JobDefinition>> ListAsync();
}

/// <summary>Up to <see cref="Jobs.ClusterJobConstants.PartitionSize"/> items of a job with their outcomes, keyed <c>job/partition</c>.</summary>
[Alias("millrace.IJobPartitionGrain")]
internal interface IJobPartitionGrain : IGrainWithStringKey
{
    /// <summary>Stores the partition's items; the same items again are accepted (a retried submission).</summary>
    [Alias("init")]
    Task InitializeAsync(JobDefinition definition, int partition, long firstIndex, IReadOnlyList<Jobs.WorkItem> items);

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
    Task<IReadOnlyList<Jobs.JobItemOutcome>> ReadOutcomesAsync(int from, int max);

    /// <summary>Stops leasing and recording: leases in flight fail to renew, and their reports are not recorded.</summary>
    [Alias("cancel")]
    Task CancelAsync();
}

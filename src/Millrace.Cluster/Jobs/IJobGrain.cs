using Orleans.Concurrency;

namespace Millrace.Cluster.Jobs;

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
    Task<ClusterJobStatus> GetStatusAsync();

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
    /// <see cref="ClusterJobState.Failed"/>. One-way, like <see cref="PartitionDoneAsync"/>.
    /// </summary>
    [Alias("item-failed")]
    [OneWay]
    Task ItemFailedAsync();
}

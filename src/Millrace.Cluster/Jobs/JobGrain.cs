using Millrace.Cluster.Hosting;
using Millrace.Parallel;

namespace Millrace.Cluster.Jobs;

/// <summary>The coordinator of one job; its state is the definition and the life stage, persisted on every change.</summary>
internal sealed class JobGrain(
    [PersistentState("job", ClusterHostingConstants.StorageName)] IPersistentState<JobGrain.JobRecord> record,
    IGrainFactory grains) : Grain, IJobGrain
{
    public async Task<bool> PrepareAsync(JobDefinition definition)
    {
        if (record.State.Definition is { } existing)
        {
            return existing == definition;
        }

        record.State = new JobRecord { Definition = definition, State = ClusterJobState.Unknown };
        await record.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
        return true;
    }

    public async Task StartAsync()
    {
        var definition = record.State.Definition ?? throw new InvalidOperationException($"Job '{this.GetPrimaryKeyString()}' was never prepared.");
        if (record.State.State == ClusterJobState.Unknown)
        {
            record.State = record.State with { State = ClusterJobState.Running };
            await record.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
        }

        if (record.State.State == ClusterJobState.Running)
        {
            // Also after a restart between the write above and this call: adding twice is harmless.
            await Directory.AddAsync(definition).ConfigureAwait(true);
        }
    }

    public Task<JobDefinition?> GetDefinitionAsync() => Task.FromResult(record.State.Definition);

    public async Task<ClusterJobStatus> GetStatusAsync()
    {
        if (record.State.Definition is not { } definition)
        {
            return new ClusterJobStatus(this.GetPrimaryKeyString(), string.Empty, ClusterJobState.Unknown, 0, 0, 0, 0, new Dictionary<string, long>());
        }

        var counts = await Task.WhenAll(Enumerable.Range(0, definition.Partitions)
            .Select(p => grains.GetGrain<IJobPartitionGrain>(definition.PartitionKey(p)).GetCountsAsync())).ConfigureAwait(true);
        var bySilo = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (silo, completed) in counts.SelectMany(c => c.CompletedBySilo))
        {
            bySilo[silo] = bySilo.GetValueOrDefault(silo) + completed;
        }

        var succeeded = counts.Sum(c => (long)c.Succeeded);
        var failed = counts.Sum(c => (long)c.Failed);
        if (record.State.State == ClusterJobState.Running && succeeded + failed == definition.Total)
        {
            // Every outcome is in, though a partition's one-way report may still be on its way (or was lost with a silo).
            await CompleteAsync(definition).ConfigureAwait(true);
        }

        return new ClusterJobStatus(definition.JobId, definition.Handler, record.State.State, definition.Total, counts.Sum(c => (long)c.Leased), succeeded, failed, bySilo);
    }

    public Task CancelAsync() => StopAsync(ClusterJobState.Cancelled);

    public Task ItemFailedAsync() => StopAsync(ClusterJobState.Failed);

    public async Task PartitionDoneAsync(int partition)
    {
        if (record.State.Definition is not { } definition || record.State.State != ClusterJobState.Running)
        {
            return;
        }

        // Partitions report once each, but a report can repeat after a partition restarts: a set, not a count.
        if (!record.State.DonePartitions.Add(partition))
        {
            return;
        }

        if (record.State.DonePartitions.Count == definition.Partitions)
        {
            await CompleteAsync(definition).ConfigureAwait(true);
            return;
        }

        await record.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
    }

    /// <summary>
    /// Ends a running job before every item has an outcome: no partition leases or records any more; recorded outcomes
    /// stay. The partitions stop first and the state is written last, so a watcher that sees the job ended reads every
    /// outcome it will ever have, and a stop cut short (a partition's silo down) leaves the job running, to be stopped by
    /// the next cancel or failure report.
    /// </summary>
    private async Task StopAsync(ClusterJobState state)
    {
        if (record.State.Definition is not { } definition || record.State.State is not (ClusterJobState.Running or ClusterJobState.Unknown))
        {
            return;
        }

        await Task.WhenAll(Enumerable.Range(0, definition.Partitions)
            .Select(p => grains.GetGrain<IJobPartitionGrain>(definition.PartitionKey(p)).CancelAsync())).ConfigureAwait(true);
        record.State = record.State with { State = state };
        await record.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
        await Directory.RemoveAsync(definition.JobId).ConfigureAwait(true);
    }

    private async Task CompleteAsync(JobDefinition definition)
    {
        // A fail-fast job whose last outcomes hold its first failure ends Failed, whichever report came first.
        var failed = definition.Options.ErrorMode == ErrorMode.FailFast
            && (await Task.WhenAll(Enumerable.Range(0, definition.Partitions)
                .Select(p => grains.GetGrain<IJobPartitionGrain>(definition.PartitionKey(p)).GetCountsAsync())).ConfigureAwait(true)).Any(c => c.Failed > 0);
        record.State = record.State with { State = failed ? ClusterJobState.Failed : ClusterJobState.Completed };
        await record.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
        await Directory.RemoveAsync(definition.JobId).ConfigureAwait(true);
    }

    private IJobDirectoryGrain Directory => grains.GetGrain<IJobDirectoryGrain>(0);

    /// <summary>The persisted state of a job.</summary>
    [GenerateSerializer]
    [Alias("millrace.job-record")]
    internal sealed record JobRecord
    {
        [Id(0)] public JobDefinition? Definition { get; init; }

        [Id(1)] public ClusterJobState State { get; init; }

        [Id(2)] public HashSet<int> DonePartitions { get; init; } = [];
    }
}

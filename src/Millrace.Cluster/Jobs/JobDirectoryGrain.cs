using Millrace.Cluster.Hosting;

namespace Millrace.Cluster.Jobs;

/// <summary>The running jobs, persisted so a restarted cluster resumes them.</summary>
internal sealed class JobDirectoryGrain(
    [PersistentState("directory", ClusterHostingConstants.StorageName)] IPersistentState<JobDirectoryGrain.DirectoryRecord> record) : Grain, IJobDirectoryGrain
{
    public async Task AddAsync(JobDefinition definition)
    {
        if (record.State.Jobs.Any(j => j.JobId == definition.JobId))
        {
            return;
        }

        record.State.Jobs.Add(definition);
        await record.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
    }

    public async Task RemoveAsync(string jobId)
    {
        if (record.State.Jobs.RemoveAll(j => j.JobId == jobId) > 0)
        {
            await record.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
        }
    }

    public Task<IReadOnlyList<JobDefinition>> ListAsync() => Task.FromResult<IReadOnlyList<JobDefinition>>([.. record.State.Jobs]);

    /// <summary>The persisted list of running jobs.</summary>
    [GenerateSerializer]
    [Alias("millrace.directory-record")]
    internal sealed class DirectoryRecord
    {
        [Id(0)] public List<JobDefinition> Jobs { get; init; } = [];
    }
}

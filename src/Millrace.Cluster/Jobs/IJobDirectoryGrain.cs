namespace Millrace.Cluster.Jobs;

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

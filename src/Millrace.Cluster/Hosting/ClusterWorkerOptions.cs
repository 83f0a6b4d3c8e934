namespace Millrace.Cluster.Hosting;

/// <summary>How a silo's worker takes and runs items. Defaults are in <see cref="ClusterHostingConstants"/>.</summary>
public sealed class ClusterWorkerOptions
{
    /// <summary>Gets or sets how many items this silo runs at once, over every job; it leases no more than that plus one lease waiting.</summary>
    /// <value>Default <see cref="ClusterHostingConstants.MaxDegreeOfParallelism"/>. At least 1.</value>
    public int MaxDegreeOfParallelism { get; set; } = ClusterHostingConstants.MaxDegreeOfParallelism;

    /// <summary>Gets or sets how long an idle worker waits before it asks for work again.</summary>
    /// <value>Default <see cref="ClusterHostingConstants.PollInterval"/>. From 1 millisecond to 1 minute.</value>
    public TimeSpan PollInterval { get; set; } = ClusterHostingConstants.PollInterval;

    /// <summary>Checks every option and reports all the problems at once.</summary>
    /// <exception cref="ArgumentException">One or more options are invalid; the message lists each.</exception>
    public void Validate()
    {
        var problems = new List<string>();
        if (MaxDegreeOfParallelism < 1)
        {
            problems.Add($"MaxDegreeOfParallelism is {MaxDegreeOfParallelism}; it must be at least 1.");
        }

        if (PollInterval < TimeSpan.FromMilliseconds(1) || PollInterval > TimeSpan.FromMinutes(1))
        {
            problems.Add($"PollInterval is {PollInterval}; it must be from 1 millisecond to 1 minute.");
        }

        if (problems.Count > 0)
        {
            throw new ArgumentException($"Invalid cluster worker options: {string.Join(" ", problems)}");
        }
    }
}

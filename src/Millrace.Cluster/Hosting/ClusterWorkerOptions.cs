namespace Millrace.Cluster.Hosting;

/// <summary>How a silo's worker takes and runs items. Defaults are in <see cref="ClusterHostingConstants"/>.</summary>
/// <remarks>
/// A settable class, unlike the suite's init-only option records, because the host configures it through
/// <c>IOptions&lt;T&gt;</c> (a delegate or a configuration section sets its properties); it is validated once, as the
/// silo starts, in the suite's words (<see cref="OptionsValidation"/>).
/// </remarks>
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
            problems.Add(OptionsValidation.Describe(nameof(MaxDegreeOfParallelism), "must be at least 1", MaxDegreeOfParallelism));
        }

        if (PollInterval < TimeSpan.FromMilliseconds(1) || PollInterval > TimeSpan.FromMinutes(1))
        {
            problems.Add(OptionsValidation.Describe(nameof(PollInterval), "must be from 1 millisecond to 1 minute", PollInterval));
        }

        OptionsValidation.ThrowIfAny(problems, "Invalid cluster worker options:");
    }
}

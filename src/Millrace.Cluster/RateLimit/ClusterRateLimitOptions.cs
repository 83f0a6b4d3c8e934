using Millrace.Parallel.RateLimit;

namespace Millrace.Cluster.RateLimit;

/// <summary>
/// A rate every silo's calls share: at most <see cref="PermitsPerPeriod"/> item attempts per <see cref="Period"/> across
/// the whole cluster, for every job that names the same limit. Silos take permits from the limit's grain in small
/// batches (about a tenth of a second's worth, split between the silos asking), so an attempt needs no network round
/// trip; what a batch buys is a tolerance: over any 5 seconds the cluster's rate stays within ±10% of the limit. The
/// options it shares with <see cref="RateLimitOptions"/> have its names, defaults and ranges.
/// </summary>
[GenerateSerializer]
[Immutable]
[Alias("millrace.cluster-rate-limit-options")]
public sealed record ClusterRateLimitOptions
{
    /// <summary>Gets the limit's name: jobs (and silos) that name the same limit share it. Jobs sharing a limit should agree on the rate; the latest asker's rate is used.</summary>
    /// <value>Required: not empty.</value>
    [Id(0)]
    public string Name { get; init; } = string.Empty;

    /// <summary>Gets how many attempts the whole cluster may start per period.</summary>
    /// <value>Required: at least 1.</value>
    [Id(1)]
    public int PermitsPerPeriod { get; init; }

    /// <summary>Gets the period.</summary>
    /// <value>Default <see cref="RateLimitConstants.Period"/>. Positive.</value>
    [Id(2)]
    public TimeSpan Period { get; init; } = RateLimitConstants.Period;

    /// <summary>Gets how many permits the cluster hands out per second.</summary>
    internal double PerSecond => PermitsPerPeriod / Period.TotalSeconds;

    internal void Validate(List<string> problems)
    {
        if (string.IsNullOrWhiteSpace(Name))
        {
            problems.Add("RateLimit.Name is empty; name the limit the silos share.");
        }

        new RateLimitOptions { PermitsPerPeriod = PermitsPerPeriod, Period = Period }.Validate(problems);
    }
}

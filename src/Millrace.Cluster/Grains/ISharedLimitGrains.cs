using Millrace.Cluster.Jobs;

namespace Millrace.Cluster.Grains;

/// <summary>A cluster-wide token bucket, keyed by the limit's name, that silos draw permits from in small batches.</summary>
[Alias("millrace.IRateLimitGrain")]
internal interface IRateLimitGrain : IGrainWithStringKey
{
    /// <summary>Grants up to <paramref name="requested"/> permits to <paramref name="silo"/>, fewer when the bucket is low or other silos are asking too.</summary>
    /// <returns>The permits granted, and when none were, how long until the next is due.</returns>
    [Alias("acquire")]
    Task<RateGrant> AcquireAsync(string silo, int requested, ClusterRateLimitOptions options);
}

/// <summary>Permits granted to a silo.</summary>
/// <param name="Permits">How many; 0 when the bucket is empty.</param>
/// <param name="RetryAfter">When none were granted, how long until one is due.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.rate-grant")]
internal sealed record RateGrant(int Permits, TimeSpan RetryAfter);

/// <summary>A cluster-wide circuit breaker, keyed by the breaker's name, that silos report their calls to.</summary>
[Alias("millrace.ICircuitBreakerGrain")]
internal interface ICircuitBreakerGrain : IGrainWithStringKey
{
    /// <summary>A silo that uses the breaker says whether its local breaker is open.</summary>
    /// <returns>Until when the shared breaker is open, or <see langword="null"/> when it is closed.</returns>
    [Alias("report")]
    Task<DateTimeOffset?> ReportAsync(string silo, bool locallyOpen, ClusterCircuitBreakerOptions options);
}

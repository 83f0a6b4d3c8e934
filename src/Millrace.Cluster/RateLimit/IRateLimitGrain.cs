namespace Millrace.Cluster.RateLimit;

/// <summary>A cluster-wide token bucket, keyed by the limit's name, that silos draw permits from in small batches.</summary>
[Alias("millrace.IRateLimitGrain")]
internal interface IRateLimitGrain : IGrainWithStringKey
{
    /// <summary>Grants up to <paramref name="requested"/> permits to <paramref name="silo"/>, fewer when the bucket is low or other silos are asking too.</summary>
    /// <returns>The permits granted, and when none were, how long until the next is due.</returns>
    [Alias("acquire")]
    Task<RateGrant> AcquireAsync(string silo, int requested, ClusterRateLimitOptions options);
}

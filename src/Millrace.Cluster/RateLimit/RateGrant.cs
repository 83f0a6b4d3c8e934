namespace Millrace.Cluster.RateLimit;

/// <summary>Permits granted to a silo.</summary>
/// <param name="Permits">How many; 0 when the bucket is empty.</param>
/// <param name="RetryAfter">When none were granted, how long until one is due.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.rate-grant")]
internal sealed record RateGrant(int Permits, TimeSpan RetryAfter);

namespace Millrace.Cluster.CircuitBreaker;

/// <summary>A cluster-wide circuit breaker, keyed by the breaker's name, that silos report their calls to.</summary>
[Alias("millrace.ICircuitBreakerGrain")]
internal interface ICircuitBreakerGrain : IGrainWithStringKey
{
    /// <summary>A silo that uses the breaker says whether its local breaker is open.</summary>
    /// <returns>Until when the shared breaker is open, or <see langword="null"/> when it is closed.</returns>
    [Alias("report")]
    Task<DateTimeOffset?> ReportAsync(string silo, bool locallyOpen, ClusterCircuitBreakerOptions options);
}

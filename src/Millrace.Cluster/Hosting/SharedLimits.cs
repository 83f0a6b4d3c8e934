using System.Collections.Concurrent;
using Millrace.Cluster.CircuitBreaker;
using Millrace.Cluster.RateLimit;

namespace Millrace.Cluster.Hosting;

/// <summary>A silo's ends of the cluster-wide rate limits and circuit breakers, one per name, shared by every job that names it.</summary>
internal sealed class SharedLimits(IGrainFactory grains, ILocalSiloDetails silo, TimeProvider time) : IDisposable
{
    private readonly ConcurrentDictionary<string, ClusterRateLimiter> _rateLimits = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, Lazy<ClusterCircuitBreaker>> _breakers = new(StringComparer.Ordinal);

    public ClusterRateLimiter RateLimiter(ClusterRateLimitOptions options) =>
        _rateLimits.GetOrAdd(options.Name, name => new ClusterRateLimiter(grains.GetGrain<IRateLimitGrain>(name), silo.Name, options, time));

    // Lazy: a breaker starts a reporting loop, which a losing GetOrAdd race must not leave running.
    public ClusterCircuitBreaker CircuitBreaker(ClusterCircuitBreakerOptions options) =>
        _breakers.GetOrAdd(options.Name, name => new(() => new ClusterCircuitBreaker(grains.GetGrain<ICircuitBreakerGrain>(name), silo.Name, options, time))).Value;

    public void Dispose()
    {
        foreach (var limiter in _rateLimits.Values)
        {
            limiter.Dispose();
        }

        foreach (var breaker in _breakers.Values.Where(b => b.IsValueCreated))
        {
            breaker.Value.Dispose();
        }
    }
}

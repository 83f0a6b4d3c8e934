using System.Threading.RateLimiting;

namespace Millrace.Parallel.RateLimit;

/// <summary>
/// The rate-limit step of the pipeline: the limiter every attempt passes, the caller's own <see cref="RateLimiter"/>
/// or a token bucket on the run's clock. One per run; <see langword="null"/> in the run when the feature is off.
/// </summary>
internal sealed class RateLimitStrategy : IDisposable
{
    private readonly RateLimiter _limiter;
    private readonly bool _owned;

    public RateLimitStrategy(RateLimitOptions options, TimeProvider time)
    {
        _owned = options.Limiter is null;
        _limiter = options.Limiter ?? new TokenBucketLimiter(options, time);
    }

    /// <summary>Waits for a permit.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>
    /// The lease, which the caller disposes when the attempt ends: a limiter whose permits come back (a
    /// <see cref="ConcurrencyLimiter"/>) must count the attempt as running until then. A lease that is not
    /// acquired means the limiter refused the permit (its queue is full).
    /// </returns>
    public ValueTask<RateLimitLease> AcquireAsync(CancellationToken cancellationToken) =>
        _limiter.AcquireAsync(1, cancellationToken);

    public void Dispose()
    {
        if (_owned)
        {
            _limiter.Dispose();
        }
    }
}

using System.Threading.RateLimiting;

namespace Millrace.Parallel.RateLimit;

/// <summary>The limiter every attempt passes: the caller's own <see cref="RateLimiter"/>, or a token bucket on the run's clock.</summary>
internal sealed class RateLimitGate : IDisposable
{
    private readonly RateLimiter _limiter;
    private readonly bool _owned;

    public RateLimitGate(RateLimitOptions options, TimeProvider time)
    {
        _owned = options.Limiter is null;
        _limiter = options.Limiter ?? new TokenBucketLimiter(options, time);
    }

    /// <summary>Waits for a permit.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>A task that completes when the permit is taken.</returns>
    /// <exception cref="RateLimitRejectedException">The limiter refused the permit (its queue is full).</exception>
    public async ValueTask AcquireAsync(CancellationToken cancellationToken)
    {
        using var lease = await _limiter.AcquireAsync(1, cancellationToken).ConfigureAwait(false);
        if (!lease.IsAcquired)
        {
            throw new RateLimitRejectedException();
        }
    }

    public void Dispose()
    {
        if (_owned)
        {
            _limiter.Dispose();
        }
    }
}

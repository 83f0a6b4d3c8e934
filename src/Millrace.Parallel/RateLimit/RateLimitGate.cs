using System.Threading.RateLimiting;

namespace Millrace.Parallel.RateLimit;

/// <summary>
/// A <see cref="TokenBucketRateLimiter"/> replenished by a timer of the run's <see cref="TimeProvider"/>
/// rather than its own, so a fake clock drives it in tests.
/// </summary>
internal sealed class RateLimitGate : IDisposable
{
    private readonly TokenBucketRateLimiter _limiter;
    private readonly ITimer _replenisher;

    public RateLimitGate(RateLimitOptions options, int maxWaiters, TimeProvider time)
    {
        _limiter = new TokenBucketRateLimiter(new TokenBucketRateLimiterOptions
        {
            TokenLimit = options.EffectiveBurst,
            TokensPerPeriod = options.PermitsPerPeriod,
            ReplenishmentPeriod = options.Period,
            QueueLimit = maxWaiters,
            QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
            AutoReplenishment = false,
        });
        _replenisher = time.CreateTimer(static state => ((TokenBucketRateLimiter)state!).TryReplenish(), _limiter, options.Period, options.Period);
    }

    /// <summary>Waits for a token.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>A task that completes when the token is taken.</returns>
    public async ValueTask AcquireAsync(CancellationToken cancellationToken)
    {
        using var lease = await _limiter.AcquireAsync(1, cancellationToken).ConfigureAwait(false);
        if (!lease.IsAcquired)
        {
            throw new InvalidOperationException("The rate limiter's queue is full; it holds one waiter per worker, so this is a bug.");
        }
    }

    public void Dispose()
    {
        _replenisher.Dispose();
        _limiter.Dispose();
    }
}

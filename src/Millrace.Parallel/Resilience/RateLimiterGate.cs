using System.Threading.RateLimiting;
using Millrace.Parallel.RateLimit;

namespace Millrace.Parallel.Resilience;

/// <summary>
/// A <see cref="RateLimiter"/> as a gate: each attempt takes one permit and holds its lease until the attempt ends, as
/// Polly's rate-limiter strategy holds it, so a <see cref="ConcurrencyLimiter"/> bounds the attempts running; a lease
/// that is not acquired (the limiter's queue is full) refuses the attempt with a <see cref="RateLimitRejectedException"/>.
/// </summary>
/// <param name="limiter">The limiter; the pipeline disposes it only when it made it (<paramref name="owned"/>).</param>
/// <param name="owned">Whether the pipeline made the limiter.</param>
internal sealed class RateLimiterGate(RateLimiter limiter, bool owned) : AttemptGate, IDisposable
{
    public override ValueTask<GatePass> EnterAsync(CancellationToken cancellationToken)
    {
        var pending = limiter.AcquireAsync(1, cancellationToken);
        return pending.IsCompletedSuccessfully ? new(PassOf(pending.Result)) : AwaitAsync(pending);

        static async ValueTask<GatePass> AwaitAsync(ValueTask<RateLimitLease> pending) => PassOf(await pending.ConfigureAwait(false));
    }

    public override void Exit(in GatePass pass, bool ran, Exception? failure) => pass.Permit?.Dispose();

    public void Dispose()
    {
        if (owned)
        {
            limiter.Dispose();
        }
    }

    private static GatePass PassOf(RateLimitLease lease)
    {
        if (lease.IsAcquired)
        {
            return new GatePass(lease, 0, null);
        }

        lease.Dispose();
        return GatePass.Refused(new RateLimitRejectedException());
    }
}

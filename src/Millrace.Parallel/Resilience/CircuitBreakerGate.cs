using Millrace.Parallel.CircuitBreaker;

namespace Millrace.Parallel.Resilience;

/// <summary>
/// A circuit breaker as a gate: an attempt asks the breaker before it runs and reports its outcome after. When the
/// circuit does not let it through, the attempt fails with a <see cref="CircuitOpenException"/>
/// (<see cref="CircuitOpenBehavior.Fail"/>) or waits until it does (<see cref="CircuitOpenBehavior.Hold"/>).
/// </summary>
/// <param name="breaker">The breaker's state machine: the pipeline's own, or a <see cref="SharedCircuitBreaker"/>'s.</param>
/// <param name="hold">Whether attempts wait instead of failing.</param>
internal sealed class CircuitBreakerGate(CircuitController breaker, bool hold) : AttemptGate
{
    public CircuitController Breaker => breaker;

    public override ValueTask<GatePass> EnterAsync(CancellationToken cancellationToken)
    {
        if (breaker.TryEnter(out var probe, out var retryAfter))
        {
            return new(new GatePass(null, probe, null));
        }

        return hold ? HoldAsync(cancellationToken) : new(GatePass.Refused(new CircuitOpenException(retryAfter)));
    }

    public override void Exit(in GatePass pass, bool ran, Exception? failure)
    {
        if (!ran)
        {
            breaker.Abandon(pass.Probe);
        }
        else if (failure is null)
        {
            breaker.OnSuccess(pass.Probe);
        }
        else
        {
            breaker.OnFailure(pass.Probe, failure);
        }
    }

    private async ValueTask<GatePass> HoldAsync(CancellationToken cancellationToken) =>
        new(null, await breaker.EnterWhenAllowedAsync(cancellationToken).ConfigureAwait(false), null);
}

namespace Millrace.Parallel.Resilience;

/// <summary>
/// A step every attempt passes before its timeout starts, so its wait never counts against the attempt's time: a rate
/// limiter, a concurrency limiter or a circuit breaker. Entering hands back a <see cref="GatePass"/> that the pipeline
/// gives back when the attempt ends (or never ran), so the gate can release its permit or record the outcome.
/// </summary>
internal abstract class AttemptGate
{
    /// <summary>Waits until the attempt may pass, or refuses it.</summary>
    /// <param name="cancellationToken">Stops the wait; the pipeline then ends the item as cancelled.</param>
    /// <returns>The pass, or a refusal (<see cref="GatePass.Refusal"/>) that fails the attempt without running it.</returns>
    public abstract ValueTask<GatePass> EnterAsync(CancellationToken cancellationToken);

    /// <summary>Gives back a pass this gate handed out.</summary>
    /// <param name="pass">The pass.</param>
    /// <param name="ran">
    /// Whether the attempt ran and its outcome says something of the service: false when a later gate refused it, a wait
    /// was cancelled, or the attempt failed while its caller cancelled it.
    /// </param>
    /// <param name="failure">The attempt's exception when it ran and failed; <see langword="null"/> when it succeeded.</param>
    public abstract void Exit(in GatePass pass, bool ran, Exception? failure);
}

/// <summary>What a gate hands an attempt: its permit (a lease) or its role (a probe), or the reason it was refused.</summary>
/// <param name="Permit">What the gate gives back on exit, if anything.</param>
/// <param name="Probe">For a breaker, the attempt's probe ticket when it is a half-open probe; 0 when it is not.</param>
/// <param name="Refusal">Why the attempt may not run, or <see langword="null"/> when it may.</param>
internal readonly record struct GatePass(IDisposable? Permit, int Probe, Exception? Refusal)
{
    public static GatePass Refused(Exception refusal) => new(null, 0, refusal);
}

/// <summary>
/// The passes of one attempt, one per gate: four inline, so an attempt through up to four gates allocates nothing
/// (a mutable struct, kept in the pipeline's pooled state machine).
/// </summary>
internal struct GatePasses
{
    private GatePass _0;
    private GatePass _1;
    private GatePass _2;
    private GatePass _3;
    private GatePass[]? _more;

    public readonly GatePass this[int index] => index switch
    {
        0 => _0,
        1 => _1,
        2 => _2,
        3 => _3,
        _ => _more![index - 4],
    };

    public void Set(int index, int count, in GatePass pass)
    {
        switch (index)
        {
            case 0: _0 = pass; break;
            case 1: _1 = pass; break;
            case 2: _2 = pass; break;
            case 3: _3 = pass; break;
            default:
                (_more ??= new GatePass[count - 4])[index - 4] = pass;
                break;
        }
    }
}

namespace Millrace.Cluster.Jobs;

/// <summary>
/// A circuit breaker every silo's calls share, keyed by <see cref="Name"/>, over a local breaker on each silo. A silo's
/// local breaker opens when, over its own calls in the last <see cref="SamplingDuration"/>, at least
/// <see cref="MinimumThroughput"/> calls were made and <see cref="FailureRatio"/> of them failed; it holds back that silo
/// only. The shared breaker opens for every silo when the local breakers of a quorum of the silos using it are open:
/// <see cref="QuorumSilos"/>, or all of them when fewer use it (so failures seen by the only silo calling a service stop
/// every silo from calling it). One sick silo must not open the circuit for all (Polly's maintainers named the trap,
/// App-vNext/Polly#215), and a ratio over the whole cluster's calls would let it: a silo whose calls fail fast makes more
/// calls than the healthy ones and can carry the ratio alone. An open breaker, shared or local, holds items back (they
/// wait, their leases renewed, and the silo leases no more of them) for <see cref="BreakDuration"/> instead of failing
/// them: a batch job wants every item done, later, not failures recorded now. After the break the counts start afresh,
/// so the next calls probe the service.
/// </summary>
[GenerateSerializer]
[Immutable]
[Alias("millrace.cluster-circuit-breaker-options")]
public sealed record ClusterCircuitBreakerOptions
{
    /// <summary>Gets the breaker's name: jobs that name the same breaker share it.</summary>
    /// <value>Required: not empty.</value>
    [Id(0)]
    public string Name { get; init; } = string.Empty;

    /// <summary>Gets the failure ratio, over one silo's calls, that opens its local breaker.</summary>
    /// <value>Default 0.5. Above 0, at most 1.</value>
    [Id(1)]
    public double FailureRatio { get; init; } = 0.5;

    /// <summary>Gets the fewest calls of a silo in the sampling window for its ratio to count.</summary>
    /// <value>Default 20. At least 1.</value>
    [Id(2)]
    public int MinimumThroughput { get; init; } = 20;

    /// <summary>Gets the window the ratio is taken over.</summary>
    /// <value>Default 10 seconds. From 100 milliseconds to 1 hour.</value>
    [Id(3)]
    public TimeSpan SamplingDuration { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Gets how long an open breaker holds calls back.</summary>
    /// <value>Default 5 seconds. From 10 milliseconds to 1 hour.</value>
    [Id(4)]
    public TimeSpan BreakDuration { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>Gets how many silos with their local breaker open open the shared one (all the silos using it, when fewer).</summary>
    /// <value>Default 2. At least 1 (1 lets one sick silo open the circuit for all).</value>
    [Id(5)]
    public int QuorumSilos { get; init; } = 2;

    internal void Validate(List<string> problems)
    {
        if (string.IsNullOrWhiteSpace(Name))
        {
            problems.Add("CircuitBreaker.Name is empty; name the breaker the silos share.");
        }

        if (!(FailureRatio > 0 && FailureRatio <= 1))
        {
            problems.Add($"CircuitBreaker.FailureRatio is {FailureRatio}; it must be above 0 and at most 1.");
        }

        if (MinimumThroughput < 1)
        {
            problems.Add($"CircuitBreaker.MinimumThroughput is {MinimumThroughput}; it must be at least 1.");
        }

        if (SamplingDuration < TimeSpan.FromMilliseconds(100) || SamplingDuration > TimeSpan.FromHours(1))
        {
            problems.Add($"CircuitBreaker.SamplingDuration is {SamplingDuration}; it must be from 100 milliseconds to 1 hour.");
        }

        if (BreakDuration < TimeSpan.FromMilliseconds(10) || BreakDuration > TimeSpan.FromHours(1))
        {
            problems.Add($"CircuitBreaker.BreakDuration is {BreakDuration}; it must be from 10 milliseconds to 1 hour.");
        }

        if (QuorumSilos < 1)
        {
            problems.Add($"CircuitBreaker.QuorumSilos is {QuorumSilos}; it must be at least 1.");
        }
    }
}

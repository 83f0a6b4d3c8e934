using Millrace.Parallel.CircuitBreaker;

namespace Millrace.Cluster.CircuitBreaker;

/// <summary>
/// A circuit breaker every silo's calls share, keyed by <see cref="Name"/>, over a local breaker on each silo: a
/// Millrace.Parallel breaker (<see cref="SharedCircuitBreaker"/>) that holds attempts instead of failing them
/// (<see cref="CircuitOpenBehavior.Hold"/>). A silo's local breaker opens when, over its own calls in the last
/// <see cref="SamplingDuration"/>, at least <see cref="MinimumThroughput"/> calls were made and <see cref="FailureRatio"/>
/// of them failed; it holds back that silo only, and after <see cref="BreakDuration"/> one probe call decides whether it
/// closes. The shared breaker opens for every silo when the local breakers of a quorum of the silos using it are open:
/// <see cref="QuorumSilos"/>, or all of them when fewer use it (so failures seen by the only silo calling a service stop
/// every silo from calling it); each silo then isolates its local breaker until the shared one closes. One sick silo must
/// not open the circuit for all (Polly's maintainers named the trap, App-vNext/Polly#215), and a ratio over the whole
/// cluster's calls would let it: a silo whose calls fail fast makes more calls than the healthy ones and can carry the
/// ratio alone. An open breaker, shared or local, holds items back (they wait, their leases renewed, and the silo leases
/// no more of them) instead of failing them: a batch job wants every item done, later, not failures recorded now. The
/// options it shares with <see cref="CircuitBreakerOptions"/> have its names, defaults and ranges.
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
    /// <value>Default <see cref="ClusterCircuitBreakerConstants.FailureRatio"/>. Greater than 0 and at most 1.</value>
    [Id(1)]
    public double FailureRatio { get; init; } = ClusterCircuitBreakerConstants.FailureRatio;

    /// <summary>Gets the fewest calls of a silo in the sampling window for its ratio to count.</summary>
    /// <value>Default <see cref="CircuitBreakerConstants.MinimumThroughput"/>. At least 1.</value>
    [Id(2)]
    public int MinimumThroughput { get; init; } = CircuitBreakerConstants.MinimumThroughput;

    /// <summary>Gets the window the ratio is taken over, and in which a silo counts as using the shared breaker.</summary>
    /// <value>Default <see cref="CircuitBreakerConstants.SamplingDuration"/>. Positive.</value>
    [Id(3)]
    public TimeSpan SamplingDuration { get; init; } = CircuitBreakerConstants.SamplingDuration;

    /// <summary>Gets how long an open breaker, local or shared, holds calls back.</summary>
    /// <value>Default <see cref="CircuitBreakerConstants.BreakDuration"/>. Positive.</value>
    [Id(4)]
    public TimeSpan BreakDuration { get; init; } = CircuitBreakerConstants.BreakDuration;

    /// <summary>Gets how many silos with their local breaker open open the shared one (all the silos using it, when fewer).</summary>
    /// <value>Default <see cref="ClusterCircuitBreakerConstants.QuorumSilos"/>. At least 1 (1 lets one sick silo open the circuit for all).</value>
    [Id(5)]
    public int QuorumSilos { get; init; } = ClusterCircuitBreakerConstants.QuorumSilos;

    /// <summary>The local breaker a silo runs for this shared one: Millrace.Parallel's, holding instead of failing.</summary>
    internal CircuitBreakerOptions ToLocalOptions() => new()
    {
        FailureRatio = FailureRatio,
        MinimumThroughput = MinimumThroughput,
        SamplingDuration = SamplingDuration,
        BreakDuration = BreakDuration,
        WhenOpen = CircuitOpenBehavior.Hold,
    };

    internal void Validate(List<string> problems)
    {
        if (string.IsNullOrWhiteSpace(Name))
        {
            problems.Add("CircuitBreaker.Name is empty; name the breaker the silos share.");
        }

        ToLocalOptions().Validate(problems);
        if (QuorumSilos < 1)
        {
            problems.Add(OptionsValidation.Describe("CircuitBreaker.QuorumSilos", "must be at least 1", QuorumSilos));
        }
    }
}

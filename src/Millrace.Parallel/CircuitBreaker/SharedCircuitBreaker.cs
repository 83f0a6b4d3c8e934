namespace Millrace.Parallel.CircuitBreaker;

/// <summary>
/// A circuit breaker that several runs share, as they can share a <see cref="System.Threading.RateLimiting.RateLimiter"/>
/// through <see cref="RateLimit.RateLimitOptions.Limiter"/>: failures in one run open the circuit for all of them. Set
/// it as <see cref="ParallelOperatorOptions.SharedCircuitBreaker"/>; <see cref="ParallelOperatorOptions.CircuitBreaker"/>
/// instead gives each run a breaker of its own. Thread-safe; each run reports the state changes it sees to its own hooks.
/// </summary>
public sealed class SharedCircuitBreaker
{
    /// <summary>Initializes a closed breaker.</summary>
    /// <param name="options">How the breaker opens and recovers; validated here.</param>
    /// <param name="timeProvider">The breaker's clock; <see cref="TimeProvider.System"/> when <see langword="null"/>.</param>
    /// <exception cref="ArgumentException">The options are invalid; the message lists each problem.</exception>
    public SharedCircuitBreaker(CircuitBreakerOptions options, TimeProvider? timeProvider = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        var errors = new List<string>();
        options.Validate(errors);
        ParallelOperatorOptions.ThrowIfInvalid(errors);
        Controller = new CircuitController(options, timeProvider ?? TimeProvider.System);
    }

    /// <summary>Gets the circuit's current state.</summary>
    public CircuitState State => Controller.State;

    internal CircuitController Controller { get; }
}

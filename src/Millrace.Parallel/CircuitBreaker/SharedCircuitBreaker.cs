namespace Millrace.Parallel.CircuitBreaker;

/// <summary>
/// A circuit breaker that several runs and pipelines share, as they can share a
/// <see cref="System.Threading.RateLimiting.RateLimiter"/>: failures in one open the circuit for all of them. Set it as
/// <see cref="ParallelOperatorOptions.SharedCircuitBreaker"/> or add it to a pipeline
/// (<see cref="Resilience.ResiliencePipelineBuilder.AddCircuitBreaker(SharedCircuitBreaker)"/>);
/// <see cref="ParallelOperatorOptions.CircuitBreaker"/> instead gives each run a breaker of its own. It can also be
/// opened and closed by hand (<see cref="Isolate"/>, <see cref="Close"/>), as Polly's manual control does, which is how
/// a breaker that other machines share feeds their verdict into a local one. Thread-safe.
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
        OptionsValidation.ThrowIfAny(errors, "Invalid circuit breaker options:");
        Controller = new CircuitController(options, timeProvider ?? TimeProvider.System);
        Controller.Subscribe(change => CircuitController.NotifyEach(StateChanged, handler => handler(this, change)));
    }

    /// <summary>
    /// Occurs when the circuit changes state, on the thread of the attempt (or the call) that changed it: keep handlers
    /// short. A handler that throws does not keep the others from hearing; its exception reaches that attempt or call.
    /// </summary>
    public event EventHandler<CircuitStateChange>? StateChanged;

    /// <summary>Gets the state an attempt would find now (an open circuit whose break has ended reads as half-open).</summary>
    public CircuitState State => Controller.State;

    internal CircuitController Controller { get; }

    /// <summary>Opens the circuit until <see cref="Close"/> is called, whatever the attempts' outcomes: <see cref="CircuitState.Isolated"/>.</summary>
    public void Isolate() => Controller.Isolate();

    /// <summary>Closes the circuit, whatever its state, and starts counting failures afresh.</summary>
    public void Close() => Controller.Close();
}

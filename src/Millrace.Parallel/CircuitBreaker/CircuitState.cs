namespace Millrace.Parallel.CircuitBreaker;

/// <summary>The state of a circuit breaker.</summary>
public enum CircuitState
{
    /// <summary>Items run; failures are counted.</summary>
    Closed,

    /// <summary>
    /// Attempts fail at once with <see cref="CircuitOpenException"/>, or wait (<see cref="CircuitOpenBehavior.Hold"/>),
    /// until the break duration ends.
    /// </summary>
    Open,

    /// <summary>The break has ended; a few probe items run, and their outcome closes or reopens the circuit.</summary>
    HalfOpen,

    /// <summary>
    /// Opened by hand (<see cref="SharedCircuitBreaker.Isolate"/>): attempts are refused or held, as when open, until
    /// <see cref="SharedCircuitBreaker.Close"/>; no break ends it.
    /// </summary>
    Isolated,
}

namespace Millrace.Parallel.CircuitBreaker;

/// <summary>The state of a circuit breaker.</summary>
public enum CircuitState
{
    /// <summary>Items run; failures are counted.</summary>
    Closed,

    /// <summary>Items fail at once with <see cref="CircuitOpenException"/> until the break duration ends.</summary>
    Open,

    /// <summary>The break has ended; a few probe items run, and their outcome closes or reopens the circuit.</summary>
    HalfOpen,
}

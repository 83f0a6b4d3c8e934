namespace Millrace.Parallel.CircuitBreaker;

/// <summary>Describes a circuit breaker's change of state.</summary>
/// <param name="From">The state it left.</param>
/// <param name="To">The state it entered.</param>
/// <param name="At">When, by the run's <see cref="TimeProvider"/>.</param>
public readonly record struct CircuitStateChange(CircuitState From, CircuitState To, DateTimeOffset At);

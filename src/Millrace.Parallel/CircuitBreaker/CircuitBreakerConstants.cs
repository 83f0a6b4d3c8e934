namespace Millrace.Parallel.CircuitBreaker;

/// <summary>The documented defaults of <see cref="CircuitBreakerOptions"/>.</summary>
public static class CircuitBreakerConstants
{
    /// <summary>The default number of consecutive failures that opens the circuit.</summary>
    /// <value>5.</value>
    public const int ConsecutiveFailures = 5;

    /// <summary>The default number of attempts a sampling window needs before its failure ratio can open the circuit.</summary>
    /// <value>10.</value>
    public const int MinimumThroughput = 10;

    /// <summary>The default number of probe attempts allowed at once while half-open.</summary>
    /// <value>1.</value>
    public const int HalfOpenProbes = 1;

    /// <summary>Gets the default time the circuit stays open.</summary>
    /// <value>5 seconds.</value>
    public static TimeSpan BreakDuration { get; } = TimeSpan.FromSeconds(5);

    /// <summary>Gets the default length of the failure-ratio sampling window.</summary>
    /// <value>30 seconds.</value>
    public static TimeSpan SamplingDuration { get; } = TimeSpan.FromSeconds(30);
}

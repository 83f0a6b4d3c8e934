namespace Millrace.Parallel.CircuitBreaker;

/// <summary>What an attempt does when it finds the circuit open, isolated, or half-open with every probe taken.</summary>
public enum CircuitOpenBehavior
{
    /// <summary>It fails at once with a <see cref="CircuitOpenException"/>, which the retry may handle (Polly's behaviour).</summary>
    Fail,

    /// <summary>
    /// It waits, on the breaker's clock, until the circuit lets it through: a batch that wants every item done later
    /// rather than failed now. The wait is outside the attempt's timeout, as every gate's is.
    /// </summary>
    Hold,
}

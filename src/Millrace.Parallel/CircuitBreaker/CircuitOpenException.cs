namespace Millrace.Parallel.CircuitBreaker;

/// <summary>The failure of an item that was not attempted because the circuit was open.</summary>
public sealed class CircuitOpenException : Exception
{
    /// <summary>Initializes a new instance for a circuit that stays open for <paramref name="retryAfter"/>.</summary>
    /// <param name="retryAfter">How long until the circuit lets a probe through.</param>
    public CircuitOpenException(TimeSpan retryAfter)
        : base($"The circuit is open; the next probe is allowed in {retryAfter}.")
    {
        RetryAfter = retryAfter;
    }

    /// <summary>Initializes a new instance.</summary>
    public CircuitOpenException()
        : base("The circuit is open.")
    {
    }

    /// <summary>Initializes a new instance with a message.</summary>
    /// <param name="message">The message.</param>
    public CircuitOpenException(string message)
        : base(message)
    {
    }

    /// <summary>Initializes a new instance with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The inner exception.</param>
    public CircuitOpenException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Gets how long the circuit stays open after this rejection.</summary>
    public TimeSpan RetryAfter { get; }
}

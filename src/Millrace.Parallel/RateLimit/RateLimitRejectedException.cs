namespace Millrace.Parallel.RateLimit;

/// <summary>The failure of an attempt whose rate limiter refused it a permit, as a caller's limiter with a full queue does.</summary>
public sealed class RateLimitRejectedException : Exception
{
    /// <summary>Initializes a new instance.</summary>
    public RateLimitRejectedException()
        : base("The rate limiter refused a permit.")
    {
    }

    /// <summary>Initializes a new instance with a message.</summary>
    /// <param name="message">The message.</param>
    public RateLimitRejectedException(string message)
        : base(message)
    {
    }

    /// <summary>Initializes a new instance with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The inner exception.</param>
    public RateLimitRejectedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}

namespace Millrace.Parallel.Retry;

/// <summary>
/// Retries of failed attempts, with a backoff between them. Names follow Polly's <c>RetryStrategyOptions</c>
/// (<see cref="MaxRetryAttempts"/>, <see cref="BackoffType"/>, <see cref="Delay"/>, <see cref="MaxDelay"/>,
/// <see cref="ShouldHandle"/>); the jittered backoffs are <see cref="Retry.BackoffType"/> values rather than a <c>UseJitter</c> flag.
/// </summary>
public sealed record RetryOptions
{
    /// <summary>Gets the number of retries after the first attempt.</summary>
    /// <value>Default <see cref="RetryConstants.MaxRetryAttempts"/>. Between 0 and 1,000.</value>
    public int MaxRetryAttempts { get; init; } = RetryConstants.MaxRetryAttempts;

    /// <summary>Gets how delays grow from one retry to the next.</summary>
    /// <value>Default <see cref="RetryConstants.BackoffType"/>.</value>
    public BackoffType BackoffType { get; init; } = RetryConstants.BackoffType;

    /// <summary>Gets the base delay of the backoff.</summary>
    /// <value>Default <see cref="RetryConstants.Delay"/>. Zero or positive.</value>
    public TimeSpan Delay { get; init; } = RetryConstants.Delay;

    /// <summary>Gets the cap on any one delay.</summary>
    /// <value>Default <see cref="RetryConstants.MaxDelay"/>. At least <see cref="Delay"/>.</value>
    public TimeSpan MaxDelay { get; init; } = RetryConstants.MaxDelay;

    /// <summary>
    /// Gets the test of whether a failure is worth retrying: the same name and shape as
    /// <see cref="CircuitBreaker.CircuitBreakerOptions.ShouldHandle"/>. Per-attempt timeouts arrive as
    /// <see cref="TimeoutException"/>, an open circuit as <see cref="CircuitBreaker.CircuitOpenException"/> and a refused
    /// rate-limit lease as <see cref="RateLimit.RateLimitRejectedException"/>.
    /// </summary>
    /// <value>Default <see langword="null"/>: every exception except <see cref="OperationCanceledException"/>.</value>
    public Func<Exception, bool>? ShouldHandle { get; init; }

    /// <summary>Gets the source of randomness for the jittered backoffs: a value in <c>[0, 1)</c>.</summary>
    /// <value>Default <see langword="null"/>: <see cref="Random.Shared"/>.</value>
    public Func<double>? Randomizer { get; init; }

    internal bool ShouldRetry(Exception exception) =>
        ShouldHandle is { } shouldHandle ? shouldHandle(exception) : exception is not OperationCanceledException;

    internal void Validate(List<string> errors)
    {
        if (MaxRetryAttempts is < 0 or > 1000)
        {
            errors.Add(OptionsValidation.Describe("Retry.MaxRetryAttempts", "must be between 0 and 1000", MaxRetryAttempts));
        }

        if (!Enum.IsDefined(BackoffType))
        {
            errors.Add(OptionsValidation.Describe("Retry.BackoffType", "is not a defined value", BackoffType));
        }

        if (Delay < TimeSpan.Zero)
        {
            errors.Add(OptionsValidation.Describe("Retry.Delay", "must not be negative", Delay));
        }

        if (MaxDelay < Delay)
        {
            errors.Add(OptionsValidation.Describe("Retry.MaxDelay", "must be at least Retry.Delay", MaxDelay));
        }
    }
}

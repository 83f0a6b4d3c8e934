namespace Millrace.Parallel.Retry;

/// <summary>Retries of failed items, with a backoff between attempts.</summary>
public sealed class RetryOptions
{
    /// <summary>Gets the number of retries after the first attempt.</summary>
    /// <value>Default <see cref="RetryConstants.MaxRetries"/>. Between 0 and 1,000.</value>
    public int MaxRetries { get; init; } = RetryConstants.MaxRetries;

    /// <summary>Gets how delays grow from one retry to the next.</summary>
    /// <value>Default <see cref="RetryConstants.Backoff"/>.</value>
    public BackoffType Backoff { get; init; } = RetryConstants.Backoff;

    /// <summary>Gets the base delay of the backoff.</summary>
    /// <value>Default <see cref="RetryConstants.BaseDelay"/>. Zero or positive.</value>
    public TimeSpan BaseDelay { get; init; } = RetryConstants.BaseDelay;

    /// <summary>Gets the cap on any one delay.</summary>
    /// <value>Default <see cref="RetryConstants.MaxDelay"/>. At least <see cref="BaseDelay"/>.</value>
    public TimeSpan MaxDelay { get; init; } = RetryConstants.MaxDelay;

    /// <summary>
    /// Gets the test of whether a failure is worth retrying. Per-item timeouts arrive as
    /// <see cref="TimeoutException"/> and an open circuit as <see cref="CircuitBreaker.CircuitOpenException"/>.
    /// </summary>
    /// <value>Default <see langword="null"/>: every exception except <see cref="OperationCanceledException"/>.</value>
    public Func<Exception, bool>? IsTransient { get; init; }

    /// <summary>Gets the source of randomness for the jittered backoffs: a value in <c>[0, 1)</c>.</summary>
    /// <value>Default <see langword="null"/>: <see cref="Random.Shared"/>.</value>
    public Func<double>? Randomizer { get; init; }

    internal bool ShouldRetry(Exception exception) =>
        IsTransient is { } isTransient ? isTransient(exception) : exception is not OperationCanceledException;

    internal void Validate(List<string> errors)
    {
        if (MaxRetries is < 0 or > 1000)
        {
            errors.Add(ParallelOperatorOptions.Describe("Retry.MaxRetries", "must be between 0 and 1000", MaxRetries));
        }

        if (!Enum.IsDefined(Backoff))
        {
            errors.Add(ParallelOperatorOptions.Describe("Retry.Backoff", "is not a defined value", Backoff));
        }

        if (BaseDelay < TimeSpan.Zero)
        {
            errors.Add(ParallelOperatorOptions.Describe("Retry.BaseDelay", "must not be negative", BaseDelay));
        }

        if (MaxDelay < BaseDelay)
        {
            errors.Add(ParallelOperatorOptions.Describe("Retry.MaxDelay", "must be at least Retry.BaseDelay", MaxDelay));
        }
    }
}

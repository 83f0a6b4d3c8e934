namespace Millrace.Parallel.Retry;

/// <summary>The documented defaults of <see cref="RetryOptions"/>.</summary>
public static class RetryConstants
{
    /// <summary>The default number of retries after the first attempt.</summary>
    /// <value>3.</value>
    public const int MaxRetries = 3;

    /// <summary>The default backoff.</summary>
    /// <value><see cref="BackoffType.ExponentialJitter"/>, which keeps many failing items from retrying in lockstep.</value>
    public const BackoffType Backoff = BackoffType.ExponentialJitter;

    /// <summary>Gets the default base delay.</summary>
    /// <value>100 milliseconds.</value>
    public static TimeSpan BaseDelay { get; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Gets the default cap on any one delay.</summary>
    /// <value>30 seconds.</value>
    public static TimeSpan MaxDelay { get; } = TimeSpan.FromSeconds(30);
}

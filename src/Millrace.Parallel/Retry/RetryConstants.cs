namespace Millrace.Parallel.Retry;

/// <summary>The documented defaults of <see cref="RetryOptions"/>.</summary>
public static class RetryConstants
{
    /// <summary>The default number of retries after the first attempt.</summary>
    /// <value>3, as Polly's <c>RetryStrategyOptions.MaxRetryAttempts</c>.</value>
    public const int MaxRetryAttempts = 3;

    /// <summary>The default backoff.</summary>
    /// <value><see cref="Retry.BackoffType.ExponentialJitter"/>, which keeps many failing items from retrying in lockstep.</value>
    public const BackoffType BackoffType = Retry.BackoffType.ExponentialJitter;

    /// <summary>Gets the default base delay.</summary>
    /// <value>100 milliseconds.</value>
    public static TimeSpan Delay { get; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Gets the default cap on any one delay.</summary>
    /// <value>30 seconds.</value>
    public static TimeSpan MaxDelay { get; } = TimeSpan.FromSeconds(30);
}

namespace Millrace.Parallel.Retry;

/// <summary>
/// The retry step of the pipeline: decides whether a failed attempt is tried again and waits out the backoff on the
/// pipeline's clock. Stateless across items (each item keeps its own count and previous delay), so one serves a
/// pipeline and every run or call that shares it.
/// </summary>
internal sealed class RetryStrategy(RetryOptions options, TimeProvider time)
{
    /// <summary>Decides whether to retry after a failed attempt, and with which delay.</summary>
    /// <param name="retries">Retries done so far for the item.</param>
    /// <param name="error">The attempt's exception.</param>
    /// <param name="previousDelay">The item's previous delay, for decorrelated jitter; updated.</param>
    /// <param name="delay">The delay before the next attempt.</param>
    /// <returns>Whether the item is tried again.</returns>
    public bool ShouldRetry(int retries, Exception error, ref TimeSpan previousDelay, out TimeSpan delay)
    {
        if (retries >= options.MaxRetryAttempts || !options.ShouldRetry(error))
        {
            delay = default;
            return false;
        }

        delay = BackoffCalculator.NextDelay(options, retries, ref previousDelay);
        return true;
    }

    /// <summary>Waits <paramref name="delay"/> on the run's clock.</summary>
    /// <param name="delay">The delay.</param>
    /// <param name="token">Cancels the wait.</param>
    /// <returns>A task that completes after the delay.</returns>
    public Task DelayAsync(TimeSpan delay, CancellationToken token) =>
        delay > TimeSpan.Zero ? Task.Delay(delay, time, token) : Task.CompletedTask;
}

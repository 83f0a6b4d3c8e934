namespace Millrace.Parallel.Retry;

/// <summary>Computes retry delays. Pure arithmetic over the options, so every formula is tested exactly.</summary>
internal static class BackoffCalculator
{
    /// <summary>Returns the delay before retry number <paramref name="retry"/> (0-based).</summary>
    /// <param name="options">The retry options.</param>
    /// <param name="retry">0 before the first retry.</param>
    /// <param name="previous">The previous delay, for decorrelated jitter; updated to the returned delay.</param>
    public static TimeSpan NextDelay(RetryOptions options, int retry, ref TimeSpan previous)
    {
        var baseTicks = (double)options.Delay.Ticks;
        var maxTicks = (double)options.MaxDelay.Ticks;
        var ticks = options.BackoffType switch
        {
            BackoffType.Constant => baseTicks,
            BackoffType.Linear => baseTicks * (retry + 1),
            BackoffType.Exponential => baseTicks * Math.Pow(2, retry),
            BackoffType.ExponentialJitter => Random(options) * Math.Min(maxTicks, baseTicks * Math.Pow(2, retry)),
            _ => Decorrelated(options, baseTicks, previous),
        };

        var delay = TimeSpan.FromTicks((long)Math.Min(ticks, maxTicks));
        previous = delay;
        return delay;
    }

    private static double Decorrelated(RetryOptions options, double baseTicks, TimeSpan previous)
    {
        var last = Math.Max(baseTicks, previous.Ticks);
        return baseTicks + (Random(options) * ((last * 3) - baseTicks));
    }

    private static double Random(RetryOptions options) =>
        options.Randomizer is { } randomizer ? randomizer() : System.Random.Shared.NextDouble();
}

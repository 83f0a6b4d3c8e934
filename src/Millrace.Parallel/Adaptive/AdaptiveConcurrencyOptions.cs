namespace Millrace.Parallel.Adaptive;

/// <summary>
/// An AIMD concurrency limit in the family of Netflix's concurrency-limits, decided once per round (a window of
/// as many completions as the limit). It starts in slow start, doubling each round while the limit is at least
/// half used and the round's average latency stays under <see cref="LatencyTolerance"/> times the long-run
/// average; after the first congestion it grows by one per round. A round whose latency rises past the
/// tolerance, or whose failure ratio (timeouts included) rises 10 points above the long-run ratio or reaches one half, multiplies
/// the limit by <see cref="BackoffRatio"/>. It never goes below <see cref="MinLimit"/> or above <see cref="MaxLimit"/>.
/// </summary>
public sealed class AdaptiveConcurrencyOptions
{
    /// <summary>Gets the lowest limit.</summary>
    /// <value>Default <see cref="AdaptiveConcurrencyConstants.MinLimit"/>. At least 1.</value>
    public int MinLimit { get; init; } = AdaptiveConcurrencyConstants.MinLimit;

    /// <summary>Gets the starting limit.</summary>
    /// <value>Default <see cref="AdaptiveConcurrencyConstants.InitialLimit"/>, clamped between the minimum and maximum.</value>
    public int InitialLimit { get; init; } = AdaptiveConcurrencyConstants.InitialLimit;

    /// <summary>Gets the highest limit, which is also the number of workers.</summary>
    /// <value>Default <see langword="null"/>: <see cref="ParallelOperatorOptions.MaxDegreeOfParallelism"/>.</value>
    public int? MaxLimit { get; init; }

    /// <summary>Gets how many times the long-run average latency a round's average may reach before it counts as congestion.</summary>
    /// <value>Default <see cref="AdaptiveConcurrencyConstants.LatencyTolerance"/>. Greater than 1.</value>
    public double LatencyTolerance { get; init; } = AdaptiveConcurrencyConstants.LatencyTolerance;

    /// <summary>Gets the factor applied to the limit on congestion or failure.</summary>
    /// <value>Default <see cref="AdaptiveConcurrencyConstants.BackoffRatio"/>. Greater than 0 and less than 1.</value>
    public double BackoffRatio { get; init; } = AdaptiveConcurrencyConstants.BackoffRatio;

    internal void Validate(List<string> errors)
    {
        if (MinLimit < 1)
        {
            errors.Add(ParallelOperatorOptions.Describe("AdaptiveConcurrency.MinLimit", "must be at least 1", MinLimit));
        }

        if (MaxLimit is { } max && max < MinLimit)
        {
            errors.Add(ParallelOperatorOptions.Describe("AdaptiveConcurrency.MaxLimit", "must be at least MinLimit", max));
        }

        if (InitialLimit < 1)
        {
            errors.Add(ParallelOperatorOptions.Describe("AdaptiveConcurrency.InitialLimit", "must be at least 1", InitialLimit));
        }

        if (!(LatencyTolerance > 1))
        {
            errors.Add(ParallelOperatorOptions.Describe("AdaptiveConcurrency.LatencyTolerance", "must be greater than 1", LatencyTolerance));
        }

        if (!(BackoffRatio is > 0 and < 1))
        {
            errors.Add(ParallelOperatorOptions.Describe("AdaptiveConcurrency.BackoffRatio", "must be greater than 0 and less than 1", BackoffRatio));
        }
    }
}

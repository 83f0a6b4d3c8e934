namespace Millrace.Parallel.Adaptive;

/// <summary>
/// A Vegas-style concurrency limit in the family of Netflix's concurrency-limits, decided once per round (as many
/// completions as the limit, and at least 32 after slow start). Each round's median latency is compared with the
/// no-load latency (the lowest round seen, re-probed every 100 rounds by halving the limit for a round) plus a noise
/// band of twice the rounds' mean deviation: the excess, by Little's law, is how many items queue in the service. The
/// limit starts in slow start, doubling each round while it is at least half used and nothing queues; then it grows by
/// one per round while fewer than <c>0.75 max(1, log10 limit)</c> items queue, holds up to one and a half times that,
/// and beyond it (two rounds in a row, or once beyond twice that) drops to the limit that would leave that few queued
/// (at most halving per round). So a service
/// whose latency does not depend on concurrency is given the maximum, and a congested one settles at the concurrency
/// where its latency starts to rise (a step past it when its latency is noisy). A round whose failure ratio (timeouts
/// included) rises 10 points above the long-run ratio or reaches one half multiplies the limit by <see cref="BackoffRatio"/>.
/// The limit never goes below <see cref="MinLimit"/> or above <see cref="MaxLimit"/>.
/// </summary>
public sealed record AdaptiveConcurrencyOptions
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

    /// <summary>Gets the factor applied to the limit after a round with too many failures.</summary>
    /// <value>Default <see cref="AdaptiveConcurrencyConstants.BackoffRatio"/>. Greater than 0 and less than 1.</value>
    public double BackoffRatio { get; init; } = AdaptiveConcurrencyConstants.BackoffRatio;

    internal void Validate(List<string> errors)
    {
        if (MinLimit < 1)
        {
            errors.Add(OptionsValidation.Describe("AdaptiveConcurrency.MinLimit", "must be at least 1", MinLimit));
        }

        if (MaxLimit is { } max && max < MinLimit)
        {
            errors.Add(OptionsValidation.Describe("AdaptiveConcurrency.MaxLimit", "must be at least MinLimit", max));
        }

        if (InitialLimit < 1)
        {
            errors.Add(OptionsValidation.Describe("AdaptiveConcurrency.InitialLimit", "must be at least 1", InitialLimit));
        }

        if (!(BackoffRatio is > 0 and < 1))
        {
            errors.Add(OptionsValidation.Describe("AdaptiveConcurrency.BackoffRatio", "must be greater than 0 and less than 1", BackoffRatio));
        }
    }
}

namespace Millrace.Parallel.RateLimit;

/// <summary>
/// A token bucket every attempt must take a token from: <see cref="PermitsPerPeriod"/> tokens are added
/// each <see cref="Period"/>, up to <see cref="Burst"/>; the bucket starts full.
/// </summary>
public sealed class RateLimitOptions
{
    /// <summary>Gets the tokens added each period.</summary>
    /// <value>Required. At least 1.</value>
    public required int PermitsPerPeriod { get; init; }

    /// <summary>Gets the replenishment period.</summary>
    /// <value>Default <see cref="RateLimitConstants.Period"/>. Positive.</value>
    public TimeSpan Period { get; init; } = RateLimitConstants.Period;

    /// <summary>Gets the most tokens the bucket holds, which is the largest burst.</summary>
    /// <value>Default <see langword="null"/>: <see cref="PermitsPerPeriod"/>. At least 1.</value>
    public int? Burst { get; init; }

    internal int EffectiveBurst => Burst ?? PermitsPerPeriod;

    internal void Validate(List<string> errors)
    {
        if (PermitsPerPeriod < 1)
        {
            errors.Add(ParallelOperatorOptions.Describe("RateLimit.PermitsPerPeriod", "must be at least 1", PermitsPerPeriod));
        }

        if (Period <= TimeSpan.Zero)
        {
            errors.Add(ParallelOperatorOptions.Describe("RateLimit.Period", "must be positive", Period));
        }

        if (Burst is < 1)
        {
            errors.Add(ParallelOperatorOptions.Describe("RateLimit.Burst", "must be at least 1", Burst));
        }
    }
}

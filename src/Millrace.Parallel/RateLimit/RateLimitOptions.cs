namespace Millrace.Parallel.RateLimit;

/// <summary>
/// A token bucket every attempt must take a token from: <see cref="PermitsPerPeriod"/> tokens are added
/// each <see cref="Period"/> of the run's clock, up to <see cref="Burst"/>; the bucket starts full and
/// waiting attempts are served in arrival order. Set <see cref="Limiter"/> instead to share any
/// <see cref="System.Threading.RateLimiting.RateLimiter"/> between runs.
/// </summary>
public sealed record RateLimitOptions
{
    /// <summary>Gets the tokens added each period.</summary>
    /// <value>At least 1, unless <see cref="Limiter"/> is set.</value>
    public int PermitsPerPeriod { get; init; }

    /// <summary>
    /// Gets a limiter of the caller's to use instead of the token bucket; the run does not dispose it. Each attempt
    /// holds its lease until the attempt ends, so a <see cref="System.Threading.RateLimiting.ConcurrencyLimiter"/>
    /// bounds the attempts running; a lease that is refused fails the attempt with a <see cref="RateLimitRejectedException"/>.
    /// </summary>
    /// <value>Default <see langword="null"/>.</value>
    public System.Threading.RateLimiting.RateLimiter? Limiter { get; init; }

    /// <summary>Gets the replenishment period.</summary>
    /// <value>Default <see cref="RateLimitConstants.Period"/>. Positive.</value>
    public TimeSpan Period { get; init; } = RateLimitConstants.Period;

    /// <summary>Gets the most tokens the bucket holds, which is the largest burst.</summary>
    /// <value>Default <see langword="null"/>: <see cref="PermitsPerPeriod"/>. At least 1.</value>
    public int? Burst { get; init; }

    internal int EffectiveBurst => Burst ?? PermitsPerPeriod;

    internal void Validate(List<string> errors)
    {
        if (Limiter is null && PermitsPerPeriod < 1)
        {
            errors.Add(OptionsValidation.Describe("RateLimit.PermitsPerPeriod", "must be at least 1", PermitsPerPeriod));
        }

        if (Period <= TimeSpan.Zero)
        {
            errors.Add(OptionsValidation.Describe("RateLimit.Period", "must be positive", Period));
        }

        if (Burst is < 1)
        {
            errors.Add(OptionsValidation.Describe("RateLimit.Burst", "must be at least 1", Burst));
        }
    }
}

namespace Millrace.Parallel.RateLimit;

/// <summary>The documented defaults of <see cref="RateLimitOptions"/>.</summary>
public static class RateLimitConstants
{
    /// <summary>Gets the default replenishment period.</summary>
    /// <value>1 second.</value>
    public static TimeSpan Period { get; } = TimeSpan.FromSeconds(1);
}

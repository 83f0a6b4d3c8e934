namespace Millrace.Parallel.Adaptive;

/// <summary>The documented defaults of <see cref="AdaptiveConcurrencyOptions"/>.</summary>
public static class AdaptiveConcurrencyConstants
{
    /// <summary>The default lowest limit.</summary>
    /// <value>1.</value>
    public const int MinLimit = 1;

    /// <summary>The default starting limit.</summary>
    /// <value>4.</value>
    public const int InitialLimit = 4;

    /// <summary>The default factor the limit is multiplied by after a round with too many failures.</summary>
    /// <value>0.9.</value>
    public const double BackoffRatio = 0.9;
}

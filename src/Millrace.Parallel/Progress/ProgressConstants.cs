namespace Millrace.Parallel.Progress;

/// <summary>The documented defaults of <see cref="ProgressOptions"/>.</summary>
public static class ProgressConstants
{
    /// <summary>Gets the default interval between reports.</summary>
    /// <value>1 second.</value>
    public static TimeSpan Interval { get; } = TimeSpan.FromSeconds(1);
}

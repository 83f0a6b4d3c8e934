namespace Millrace.Parallel.Progress;

/// <summary>
/// Periodic progress reports: one every <see cref="Interval"/> while the run lasts, and a final one when it
/// ends. Reports come from a timer thread; <see cref="Reporter"/> may marshal them elsewhere, as <see cref="Progress{T}"/> does.
/// </summary>
public sealed record ProgressOptions
{
    /// <summary>Gets the interval between reports.</summary>
    /// <value>Default <see cref="ProgressConstants.Interval"/>. Positive.</value>
    public TimeSpan Interval { get; init; } = ProgressConstants.Interval;

    /// <summary>Gets the callback that receives each report.</summary>
    /// <value>Default <see langword="null"/>; set this or <see cref="Reporter"/>.</value>
    public Action<ParallelProgress>? OnProgress { get; init; }

    /// <summary>Gets the <see cref="IProgress{T}"/> that receives each report.</summary>
    /// <value>Default <see langword="null"/>; set this or <see cref="OnProgress"/>.</value>
    public IProgress<ParallelProgress>? Reporter { get; init; }

    /// <summary>Gets the number of items the source will yield, when the operator cannot count it itself.</summary>
    /// <value>Default <see langword="null"/>: counted from collections, unknown for other sources (and then no ETA).</value>
    public long? Total { get; init; }

    internal void Validate(List<string> errors)
    {
        if (Interval <= TimeSpan.Zero)
        {
            errors.Add(OptionsValidation.Describe("Progress.Interval", "must be positive", Interval));
        }

        if (OnProgress is null && Reporter is null)
        {
            errors.Add("Progress needs OnProgress or Reporter.");
        }

        if (Total is < 0)
        {
            errors.Add(OptionsValidation.Describe("Progress.Total", "must not be negative", Total));
        }
    }
}

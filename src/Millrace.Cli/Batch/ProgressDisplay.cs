using System.Globalization;
using Millrace.Parallel.Progress;

namespace Millrace.Cli.Batch;

/// <summary>
/// Shows a batch's progress on standard error: a bar redrawn in place on a terminal, or one plain line per report
/// when the output is redirected (logs and CI have no use for carriage returns).
/// </summary>
/// <param name="writer">Where to write; standard error.</param>
/// <param name="terminal">Whether <paramref name="writer"/> is a terminal.</param>
internal sealed class ProgressDisplay(TextWriter writer, bool terminal)
{
    private const int BarWidth = 30;
    private readonly Lock _gate = new();

    /// <summary>How often a report is wanted: often enough to look live on a terminal, sparingly in a log.</summary>
    public TimeSpan Interval => terminal ? TimeSpan.FromMilliseconds(200) : TimeSpan.FromSeconds(2);

    /// <summary>Shows one progress report.</summary>
    public void Report(ParallelProgress progress)
    {
        var done = progress.Completed + progress.Failed;
        var total = progress.Total ?? done;
        var fraction = total == 0 ? 1 : (double)done / total;
        var percent = (int)Math.Round(fraction * 100);
        var eta = progress.EstimatedRemaining is { } remaining
            ? string.Create(CultureInfo.InvariantCulture, $"ETA {(int)remaining.TotalMinutes}:{remaining.Seconds:00}")
            : "ETA -:--";
        var failed = progress.Failed > 0 ? $"  {progress.Failed} failed" : string.Empty;
        lock (_gate)
        {
            if (terminal)
            {
                var filled = (int)Math.Round(fraction * BarWidth);
                writer.Write(string.Create(
                    CultureInfo.InvariantCulture,
                    $"\r[{new string('#', filled)}{new string('-', BarWidth - filled)}] {percent,3}%  {done}/{total}  {progress.ItemsPerSecond,7:0.0} files/s  {eta}{failed}   "));
                if (progress.IsFinal)
                {
                    writer.WriteLine();
                }
            }
            else
            {
                writer.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"progress: {done}/{total} ({percent}%), {progress.ItemsPerSecond:0.0} files/s, {eta}{failed}"));
            }

            writer.Flush();
        }
    }
}

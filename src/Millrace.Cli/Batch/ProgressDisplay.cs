using System.Globalization;
using Millrace.Parallel.Progress;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace Millrace.Cli.Batch;

/// <summary>
/// A batch's progress on standard error: on a terminal, a Spectre.Console progress bar that fits the window (it never
/// wraps onto new lines on a narrow one) with files per second and the time left; elsewhere, a plain line every two
/// seconds that a log keeps readable.
/// </summary>
internal sealed class ProgressDisplay(TextWriter writer, bool terminal)
{
    private ProgressTask? _task;

    /// <summary>Gets how often progress is reported.</summary>
    public TimeSpan Interval => terminal ? TimeSpan.FromMilliseconds(200) : TimeSpan.FromSeconds(2);

    /// <summary>Runs <paramref name="work"/> with the display showing its progress.</summary>
    public async Task<T> RunAsync<T>(int total, Func<Task<T>> work)
    {
        if (!terminal)
        {
            return await work();
        }

        // The tool has decided standard error is a terminal; Spectre is told so rather than left to detect it again.
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(writer), Ansi = AnsiSupport.Yes, Interactive = InteractionSupport.Yes });
        return await console.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(new TaskDescriptionColumn(), new ProgressBarColumn(), new PercentageColumn(), new RateColumn(), new RemainingTimeColumn())
            .StartAsync(async context =>
            {
                _task = context.AddTask("converting", maxValue: Math.Max(total, 1));
                return await work();
            });
    }

    /// <summary>Shows one progress report.</summary>
    public void Report(ParallelProgress progress)
    {
        var done = progress.Completed + progress.Failed;
        if (_task is { } task)
        {
            task.Value = done;
            task.Description = progress.Failed > 0 ? string.Create(CultureInfo.InvariantCulture, $"converting ({progress.Failed} failed)") : "converting";
            return;
        }

        if (terminal)
        {
            return;
        }

        var total = progress.Total ?? done;
        var percent = total == 0 ? 100 : (int)Math.Round(100.0 * done / total);
        var eta = progress.EstimatedRemaining is { } remaining
            ? string.Create(CultureInfo.InvariantCulture, $"ETA {(int)remaining.TotalMinutes}:{remaining.Seconds:00}")
            : "ETA -:--";
        var failed = progress.Failed > 0 ? $", {progress.Failed} failed" : string.Empty;
        lock (writer)
        {
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"progress: {done}/{total} ({percent}%), {progress.ItemsPerSecond:0.0} files/s, {eta}{failed}"));
            writer.Flush();
        }
    }

    /// <summary>Files per second, as Spectre measures the task's speed.</summary>
    private sealed class RateColumn : ProgressColumn
    {
        public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime) =>
            new Text(string.Create(CultureInfo.InvariantCulture, $"{task.Speed ?? 0:0.0} files/s"));
    }
}

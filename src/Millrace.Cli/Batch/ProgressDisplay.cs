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
/// <param name="writer">Standard error.</param>
/// <param name="terminal">Whether it is a terminal.</param>
/// <param name="activity">What the run does, as the bar's label (<c>converting</c>).</param>
/// <param name="unit">What it counts (<c>files</c>).</param>
internal sealed class ProgressDisplay(TextWriter writer, bool terminal, string activity = "converting", string unit = "files")
{
    private ProgressContext? _context;
    private ProgressTask? _task;

    // A cluster batch's silos, each a row of its own under the batch's on a terminal. A silo's row counts its files
    // against the whole batch; it shows no time left, which only the batch's row can tell.
    private readonly Dictionary<string, ProgressTask> _silos = new(StringComparer.Ordinal);

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
            .Columns(new TaskDescriptionColumn(), new ProgressBarColumn(), new PercentageColumn(), new RateColumn(unit), new RemainingColumn(this))
            .StartAsync(async context =>
            {
                _context = context;
                _task = context.AddTask(activity, maxValue: Math.Max(total, 1));
                return await work();
            });
    }

    /// <summary>Shows one progress report, with each silo's share of a cluster batch when there are silos.</summary>
    public void Report(ParallelProgress progress, IReadOnlyList<SiloProgress>? silos = null)
    {
        var done = progress.Completed + progress.Failed;
        if (_task is { } task)
        {
            task.Value = done;
            task.Description = progress.Failed > 0 ? string.Create(CultureInfo.InvariantCulture, $"{activity} ({progress.Failed} failed)") : activity;
            foreach (var silo in silos ?? [])
            {
                if (!_silos.TryGetValue(silo.Name, out var row))
                {
                    _silos[silo.Name] = row = _context!.AddTask("silo " + silo.Name, maxValue: task.MaxValue);
                }

                row.Value = silo.Converted;
            }

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
        var bySilo = silos is { Count: > 0 }
            ? "; " + string.Join(", ", silos.Select(silo => string.Create(CultureInfo.InvariantCulture, $"silo {silo.Name} {silo.Converted} at {silo.PerSecond:0.0}/s")))
            : string.Empty;
        lock (writer)
        {
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"progress: {done}/{total} ({percent}%), {progress.ItemsPerSecond:0.0} {unit}/s, {eta}{failed}{bySilo}"));
            writer.Flush();
        }
    }

    /// <summary>The batch's time left; blank on the silos' rows.</summary>
    private sealed class RemainingColumn(ProgressDisplay display) : ProgressColumn
    {
        private readonly RemainingTimeColumn _remaining = new();

        public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime) =>
            task == display._task ? _remaining.Render(options, task, deltaTime) : Text.Empty;
    }

    /// <summary>Files (or regions) per second, as Spectre measures the task's speed.</summary>
    private sealed class RateColumn(string unit) : ProgressColumn
    {
        public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime) =>
            new Text(string.Create(CultureInfo.InvariantCulture, $"{task.Speed ?? 0:0.0} {unit}/s"));
    }
}

/// <summary>One silo's share of a cluster batch so far: the files it converted, and its rate while converting them.</summary>
/// <param name="Name">The silo.</param>
/// <param name="Converted">The files it converted.</param>
/// <param name="PerSecond">Its files per second, from its first to its latest.</param>
internal readonly record struct SiloProgress(string Name, int Converted, double PerSecond);

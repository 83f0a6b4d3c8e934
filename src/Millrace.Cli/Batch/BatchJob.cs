using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using Millrace.Cli.Formats;
using Millrace.Parallel;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;

namespace Millrace.Cli.Batch;

/// <summary>The limits of a batch run.</summary>
/// <param name="Parallel">Files converted at once.</param>
/// <param name="Retries">Retries of a file whose read or write failed with an I/O error.</param>
/// <param name="RatePerSecond">At most this many files started per second, or no limit.</param>
/// <param name="Quiet">Whether to leave out the line per skipped file.</param>
internal sealed record BatchLimits(int Parallel, int Retries, int? RatePerSecond, bool Quiet = false);

/// <summary>Runs a batch's files somewhere other than this process (a cluster), reporting how each ended.</summary>
/// <param name="files">The files, with their formats and outputs; results are indexed by position in this list.</param>
/// <param name="display">The progress display to report to.</param>
/// <param name="converted">Called once for each file known to be converted, as it is known (an interrupted run says how many).</param>
/// <param name="cancellationToken">Stops the run.</param>
/// <returns>Each file's result.</returns>
internal delegate Task<IReadOnlyList<ItemResult<string>>> BatchRunner(
    IReadOnlyList<(string Input, FileFormatKind Format, string Output)> files, ProgressDisplay display, Action converted, CancellationToken cancellationToken);

/// <summary>
/// One <c>batch convert</c> run: finds the files, converts them in parallel through Millrace.Parallel, writes each output
/// atomically, and reports every failure once. Cancelled (SIGINT, SIGTERM), it starts no more files, abandons the ones in
/// flight without leaving a temporary file, and says how far it got.
/// </summary>
/// <param name="inputDirectory">The folder to convert.</param>
/// <param name="outputDirectory">Where the outputs go, in the same layout.</param>
/// <param name="settings">The conversion's settings.</param>
/// <param name="limits">The run's limits.</param>
/// <param name="runner">Where the files are converted when not in this process (<c>--cluster</c>).</param>
internal sealed class BatchJob(string inputDirectory, string outputDirectory, ConversionSettings settings, BatchLimits limits, BatchRunner? runner = null)
{
    private readonly string _input = Path.GetFullPath(inputDirectory);
    private readonly string _output = Path.GetFullPath(outputDirectory);
    private int _converted;

    // Each file's failure as the run reports it (after its retries; never for a file the interrupt stopped): an
    // interrupted batch has no results to report from, and must still name every file that failed before it.
    private readonly ConcurrentQueue<ItemFailed> _failed = new();

    /// <summary>Runs the batch.</summary>
    /// <returns>The exit code.</returns>
    public async Task<int> RunAsync(CliConsole console, CancellationToken cancellationToken)
    {
        if (!Directory.Exists(_input))
        {
            console.ReportError(inputDirectory, new Error(CliErrorCodes.Open, "The folder does not exist."));
            return ExitCodes.BadInput;
        }

        if (File.Exists(_output))
        {
            // Said once, rather than once for every file whose output it would have held.
            console.ReportError(outputDirectory, new Error(CliErrorCodes.Output, FileKind.IsRegularFile(_output) ? "The output folder is a file." : "The output folder is a device, pipe or socket."));
            return ExitCodes.BadInput;
        }

        if (string.Equals(_input.TrimEnd(Path.DirectorySeparatorChar), _output.TrimEnd(Path.DirectorySeparatorChar), StringComparison.Ordinal))
        {
            await console.Error.WriteLineAsync("millrace: batch convert: the output folder must differ from the input folder.");
            return ExitCodes.Usage;
        }

        OutputFile.RemoveAbandonedBelow(_output);
        var outputPrefix = _output.TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar;
        var files = Directory.EnumerateFiles(_input, "*", SearchOption.AllDirectories)
            .Where(path => !path.StartsWith(outputPrefix, StringComparison.Ordinal))
            .Order(StringComparer.Ordinal)
            .Select(path => (Path: path, Format: FileFormats.Of(path)))
            .ToList();
        var ignored = files.Count(f => f.Format is null);
        var skipped = files.Where(f => f.Format is { } format && !FileFormats.CanConvert(format, settings.Target))
            .Select(f => (f.Path, Format: f.Format!.Value))
            .ToList();
        var work = files.Where(f => f.Format is { } format && FileFormats.CanConvert(format, settings.Target))
            .Select(f => new BatchItem(f.Path, f.Format!.Value, OutputPathOf(f.Path, f.Format!.Value)))
            .ToList();
        var firstByOutput = new Dictionary<string, string>(StringComparer.Ordinal);
        for (var i = 0; i < work.Count; i++)
        {
            if (!firstByOutput.TryAdd(work[i].OutputPath, work[i].Path))
            {
                work[i] = work[i] with { CollidesWith = firstByOutput[work[i].OutputPath] };
            }
        }

        var display = new ProgressDisplay(console.Error, console.IsTerminal);
        var clock = Stopwatch.StartNew();
        var target = settings.Target.ToString().ToLowerInvariant();
        IReadOnlyList<ItemResult<string>> results;
        try
        {
            results = runner is null
                ? await display.RunAsync(work.Count, () => work.SelectParallelResultsAsync((item, token) => ConvertAsync(item, console, token), Options(display, work.Count), cancellationToken))
                : await RunElsewhereAsync(runner, work, display, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            var failed = _failed.OrderBy(f => f.Index).ToList();
            foreach (var (index, exception) in failed)
            {
                // The error a failed item's result holds (ItemResult), for the same line as an uninterrupted run's.
                ReportFailure(console, work[(int)index].Path, new Error(ParallelErrorCodes.ItemFailed, exception.Message) { ItemIndex = index, Exception = exception });
            }

            await using var summary = console.CreateTextOutput();
            // A run on a cluster leaves its failures uncounted here: the job's are listed by 'cluster status' (the files
            // whose outputs collide, failed here and never sent, are not reported when it is interrupted).
            var failedCount = runner is null ? string.Create(CultureInfo.InvariantCulture, $"; {failed.Count} failed") : string.Empty;
            await summary.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"cancelled: {Volatile.Read(ref _converted)} of {work.Count} files converted to {target} in {clock.Elapsed.TotalSeconds:0.0} s{failedCount}"));
            return ExitCodes.Interrupted;
        }

        var failures = results.Where(r => !r.IsSuccess).OrderBy(r => r.Index).ToList();
        foreach (var failure in failures)
        {
            ReportFailure(console, work[(int)failure.Index].Path, failure.Result.Error);
        }

        await using var output = console.CreateTextOutput();
        await output.WriteLineAsync(string.Create(
            CultureInfo.InvariantCulture,
            $"converted {work.Count - failures.Count} of {work.Count} files to {target} in {clock.Elapsed.TotalSeconds:0.0} s; {failures.Count} failed; {skipped.Count} skipped (no conversion to {target}); {ignored} other files ignored"));
        if (!limits.Quiet)
        {
            foreach (var (path, format) in skipped)
            {
                await output.WriteLineAsync($"skipped {Path.GetRelativePath(_input, path)}: {format.ToString().ToLowerInvariant()} does not convert to {target}");
            }
        }

        return failures.Count == 0 ? ExitCodes.Success : ExitCodes.BadInput;
    }

    /// <summary>
    /// Runs the batch through <paramref name="runner"/>, all but the files whose output collides with another's, which fail
    /// here as they would in this process.
    /// </summary>
    private async Task<IReadOnlyList<ItemResult<string>>> RunElsewhereAsync(BatchRunner runner, List<BatchItem> work, ProgressDisplay display, CancellationToken cancellationToken)
    {
        var sent = work.Select((item, index) => (item, index)).Where(w => w.item.CollidesWith is null).ToList();
        var results = new List<ItemResult<string>>(work.Count);
        foreach (var (item, index) in work.Select((item, index) => (item, index)).Where(w => w.item.CollidesWith is not null))
        {
            results.Add(new ItemResult<string>(index, Result<string>.Failure(item.Collision!)));
        }

        var ran = await runner([.. sent.Select(w => (w.item.Path, w.item.Format, w.item.OutputPath))], display, () => Interlocked.Increment(ref _converted), cancellationToken);
        results.AddRange(ran.Select(r => r with { Index = sent[(int)r.Index].index }));
        return results;
    }

    private ParallelOperatorOptions Options(ProgressDisplay display, int total) => new()
    {
        MaxDegreeOfParallelism = limits.Parallel,
        Metrics = false,
        Retry = limits.Retries == 0 ? null : new RetryOptions
        {
            MaxRetryAttempts = limits.Retries,
            BackoffType = BackoffType.ExponentialJitter,
            Delay = TimeSpan.FromMilliseconds(50),
            ShouldHandle = FileConversion.IsTransient,
        },
        RateLimit = limits.RatePerSecond is { } permits ? new RateLimitOptions { PermitsPerPeriod = permits } : null,
        Progress = new ProgressOptions { Interval = display.Interval, Total = total, OnProgress = progress => display.Report(progress) },
        Hooks = new ParallelHooks { OnError = _failed.Enqueue },
    };

    private string OutputPathOf(string path, FileFormatKind format)
    {
        var relative = Path.GetRelativePath(_input, path);
        return Path.Combine(_output, format == settings.Target ? relative : Path.ChangeExtension(relative, FileFormats.ExtensionOf(settings.Target)));
    }

    // Parallel's error for a failed item holds the final exception, which is described as every failure is (a bug's
    // included), so that it reads as on a cluster, where the handler describes it the same way.
    private static void ReportFailure(CliConsole console, string path, Error error) =>
        console.ReportError(path, error.Exception is { } exception ? CliErrors.Describe(exception) : error);

    private async ValueTask<string> ConvertAsync(BatchItem item, CliConsole console, CancellationToken cancellationToken)
    {
        if (item.Collision is { } collision)
        {
            throw new CliException(collision);
        }

        await FileConversion.ConvertAsync(item.Path, item.Format, item.OutputPath, settings, console, cancellationToken);
        Interlocked.Increment(ref _converted);
        return item.OutputPath;
    }

    private sealed record BatchItem(string Path, FileFormatKind Format, string OutputPath)
    {
        public string? CollidesWith { get; init; }

        /// <summary>Gets the failure of a file whose output is another's: the same error however the batch runs.</summary>
        public Error? Collision => CollidesWith is { } other
            ? new Error(CliErrorCodes.Collision, $"Its output {OutputPath} is also the output of {other}; rename one of them.")
            : null;
    }
}

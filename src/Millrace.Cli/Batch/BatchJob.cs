using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Millrace.Compact;
using Millrace.Nbt;
using Millrace.Parallel;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;

namespace Millrace.Cli.Batch;

/// <summary>How hard a batch may push: files at once, I/O retries, and files started per second.</summary>
/// <param name="Parallel">Files converted at once.</param>
/// <param name="Retries">Retries of a file whose read or write failed with an I/O error.</param>
/// <param name="RatePerSecond">At most this many files started per second, or null for no limit.</param>
internal sealed record BatchLimits(int Parallel, int Retries, int? RatePerSecond);

/// <summary>
/// One <c>millrace batch convert</c> run: finds the files, converts them with Millrace.Parallel, and reports. Every
/// output is written to a temporary file beside it and renamed into place, so a failed or interrupted conversion
/// never leaves a half-written file. A bad file is listed with its reason at the end; the others go on.
/// </summary>
internal sealed class BatchJob(string inputDirectory, string outputDirectory, ConversionSettings settings, BatchLimits limits)
{
    private readonly string _input = Path.GetFullPath(inputDirectory);
    private readonly string _output = Path.GetFullPath(outputDirectory);

    /// <summary>Runs the batch; 0 when every file converted, 1 when any failed or the folder is missing.</summary>
    public async Task<int> RunAsync(CliConsole console, CancellationToken cancellationToken)
    {
        if (!Directory.Exists(_input))
        {
            console.ReportError(inputDirectory, new Error("io.open", "The folder does not exist."));
            return ExitCodes.BadInput;
        }

        var outputPrefix = _output.TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar;
        var files = Directory.EnumerateFiles(_input, "*", SearchOption.AllDirectories)
            .Where(path => !path.StartsWith(outputPrefix, StringComparison.Ordinal))
            .Order(StringComparer.Ordinal)
            .Select(path => (Path: path, Format: FileConverter.FormatOf(path)))
            .ToList();
        var ignored = files.Count(f => f.Format is null);
        var skipped = files.Where(f => f.Format is { } format && !FileConverter.CanConvert(format, settings.Target))
            .Select(f => (f.Path, Format: f.Format!.Value))
            .ToList();
        var work = files.Where(f => f.Format is { } format && FileConverter.CanConvert(format, settings.Target))
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
        var results = await work.SelectParallelResultsAsync(ConvertAsync, Options(display, work.Count), cancellationToken);
        var failures = results.Where(r => !r.IsSuccess).OrderBy(r => r.Index).ToList();

        foreach (var failure in failures)
        {
            var error = failure.Result.Error;
            console.ReportError(work[(int)failure.Index].Path, error.Exception is { } exception ? Describe(exception) : error);
        }

        await using var output = console.CreateTextOutput();
        var target = settings.Target.ToString().ToLowerInvariant();
        await output.WriteLineAsync(string.Create(
            CultureInfo.InvariantCulture,
            $"converted {work.Count - failures.Count} of {work.Count} files to {target} in {clock.Elapsed.TotalSeconds:0.0} s; {failures.Count} failed; {skipped.Count} skipped (no conversion to {target}); {ignored} other files ignored"));
        foreach (var (path, format) in skipped)
        {
            await output.WriteLineAsync($"skipped {Path.GetRelativePath(_input, path)}: {format.ToString().ToLowerInvariant()} does not convert to {target}");
        }

        return failures.Count == 0 ? ExitCodes.Success : ExitCodes.BadInput;
    }

    private ParallelOperatorOptions Options(ProgressDisplay display, int total) => new()
    {
        MaxDegreeOfParallelism = limits.Parallel,
        Metrics = false,
        Retry = limits.Retries == 0 ? null : new RetryOptions
        {
            MaxRetries = limits.Retries,
            Backoff = BackoffType.ExponentialJitter,
            BaseDelay = TimeSpan.FromMilliseconds(50),
            IsTransient = static exception => exception is IOException and not (FileNotFoundException or DirectoryNotFoundException),
        },
        RateLimit = limits.RatePerSecond is { } permits ? new RateLimitOptions { PermitsPerPeriod = permits } : null,
        Progress = new ProgressOptions { Interval = display.Interval, Total = total, OnProgress = display.Report },
    };

    /// <summary>Where a file's conversion goes: the same relative path under the output folder, with the target's
    /// extension unless the format does not change (so level.dat stays level.dat).</summary>
    private string OutputPathOf(string path, BatchFormat format)
    {
        var relative = Path.GetRelativePath(_input, path);
        return Path.Combine(_output, format == settings.Target ? relative : Path.ChangeExtension(relative, FileConverter.ExtensionOf(settings.Target)));
    }

    private async ValueTask<string> ConvertAsync(BatchItem item, CancellationToken cancellationToken)
    {
        if (item.CollidesWith is { } other)
        {
            throw new InvalidOperationException($"Its output {item.OutputPath} is also the output of {other}; rename one of them.");
        }

        var bytes = await File.ReadAllBytesAsync(item.Path, cancellationToken);
        var converted = FileConverter.Convert(bytes, item.Format, settings);
        var directory = Path.GetDirectoryName(item.OutputPath)!;
        Directory.CreateDirectory(directory);
        var temporary = Path.Combine(directory, $".{Path.GetFileName(item.OutputPath)}.{Guid.NewGuid():N}.tmp");
        try
        {
            await File.WriteAllBytesAsync(temporary, converted, cancellationToken);
            File.Move(temporary, item.OutputPath, overwrite: true);
        }
        finally
        {
            File.Delete(temporary);
        }

        return item.OutputPath;
    }

    private static Error Describe(Exception exception) => exception switch
    {
        NbtFormatException nbt => new Error("nbt.format", nbt.Reason) { ByteOffset = nbt.ByteOffset, Path = nbt.Path.Length > 0 ? nbt.Path : null },
        CompactFormatException compact => new Error("compact.format", compact.Reason) { ByteOffset = compact.ByteOffset, Path = compact.Path.Length > 0 ? compact.Path : null },
        JsonException json => new Error("json.syntax", json.Message) { ByteOffset = json.BytePositionInLine },
        IOException or UnauthorizedAccessException => new Error("io", exception.Message),
        _ => new Error("convert", exception.Message),
    };

    private sealed record BatchItem(string Path, BatchFormat Format, string OutputPath)
    {
        /// <summary>The earlier input that converts to the same output file, if any.</summary>
        public string? CollidesWith { get; init; }
    }
}

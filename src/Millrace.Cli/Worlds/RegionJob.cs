using System.Globalization;
using Millrace.Cli.Batch;
using Millrace.Nbt.Worlds;
using Millrace.Parallel;

namespace Millrace.Cli.Worlds;

/// <summary>
/// A whole-world verb's run over region files, as <c>batch convert</c> runs over files: Millrace.Parallel works on
/// <c>--parallel</c> regions at once and hands each region's result back in region order (so what is printed streams,
/// and is the same at any parallelism), the progress is shown on standard error, a region that fails is reported once
/// and the others go on. Cancelled (SIGINT, SIGTERM), it starts no more regions and says how far it got; what a region
/// wrote it wrote atomically, so each region file is either as it was or as the verb left it.
/// </summary>
/// <param name="console">The console.</param>
/// <param name="parallel">Regions worked on at once.</param>
/// <param name="activity">What the run does, for the progress display and the cancellation line (<c>counting</c>).</param>
internal sealed class RegionJob(CliConsole console, int parallel, string activity)
{
    /// <summary>Runs <paramref name="work"/> on every region, then <paramref name="report"/> on each result in region order.</summary>
    /// <typeparam name="T">A region's result.</typeparam>
    /// <param name="regions">The region files.</param>
    /// <param name="work">A region's work; it throws to fail the region.</param>
    /// <param name="report">Prints a region's result and returns how many failures (unreadable chunks) it reported.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The exit code: 0 when nothing failed, 1 otherwise, 130 when interrupted.</returns>
    public async Task<int> RunAsync<T>(
        IReadOnlyList<string> regions,
        Func<string, CancellationToken, ValueTask<T>> work,
        Func<string, T, ValueTask<int>> report,
        CancellationToken cancellationToken)
    {
        var display = new ProgressDisplay(console.Error, console.IsTerminal, activity, "regions");
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = parallel,
            Ordered = true,
            Metrics = false,
            Progress = new() { Interval = display.Interval, Total = regions.Count, OnProgress = progress => display.Report(progress) },
        };
        var (done, failures) = (0, 0);
        try
        {
            await display.RunAsync(regions.Count, async () =>
            {
                await foreach (var result in regions.SelectParallelResultsStreamAsync(work, options, cancellationToken))
                {
                    var region = regions[(int)result.Index];
                    if (result.Result.TryGetValue(out var value))
                    {
                        failures += await report(region, value);
                    }
                    else
                    {
                        failures++;
                        var error = result.Result.Error;
                        console.ReportError(region, error.Exception is { } exception ? CliErrors.Describe(exception) : error);
                    }

                    done++;
                }

                return done;
            });
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            await console.Error.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"millrace: cancelled: {activity} stopped after {done} of {regions.Count} region files"));
            return ExitCodes.Interrupted;
        }

        return failures == 0 ? ExitCodes.Success : ExitCodes.BadInput;
    }

    /// <summary>Reports a region's unreadable chunks, each located by its coordinates, and returns how many there were.</summary>
    public static int ReportChunkErrors(CliConsole console, string region, IReadOnlyList<RegionChunkError> errors)
    {
        foreach (var (x, z, error) in errors)
        {
            console.ReportError(region, error with { Message = string.Create(CultureInfo.InvariantCulture, $"chunk {x} {z} of the region: {error.Message}") });
        }

        return errors.Count;
    }
}

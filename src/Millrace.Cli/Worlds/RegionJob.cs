using System.Globalization;
using Millrace.Cli.Batch;
#if MILLRACE_CLUSTER
using Millrace.Cli.Cluster;
#endif
using Millrace.Parallel;

namespace Millrace.Cli.Worlds;

/// <summary>
/// A whole-world verb's run over region files, as <c>batch convert</c> runs over files: Millrace.Parallel works on
/// <c>--parallel</c> regions at once and hands each region's result back in region order (so what is printed streams,
/// and is the same at any parallelism), the progress is shown on standard error, a region that fails is reported once
/// and the others go on. Cancelled (SIGINT, SIGTERM), it starts no more regions and says how far it got; what a region
/// wrote it wrote atomically, so each region file is either as it was or as the verb left it. With a
/// <see cref="Cluster"/> submission the regions go to the silos' <c>world</c> handler instead, which does the same work
/// and returns the same result as JSON, printed once every region has ended.
/// </summary>
/// <param name="console">The console.</param>
/// <param name="parallel">Regions worked on at once.</param>
/// <param name="activity">What the run does, for the progress display and the cancellation line (<c>counting</c>).</param>
internal sealed class RegionJob(CliConsole console, int parallel, string activity)
{
#if MILLRACE_CLUSTER
    /// <summary>Gets where the regions run when not in this process.</summary>
    public ClusterSubmission? Cluster { get; init; }
#endif

    /// <summary>Runs <paramref name="work"/> on every region, then <paramref name="report"/> on each result in region order.</summary>
    /// <typeparam name="T">A region's result.</typeparam>
    /// <param name="regions">The region files.</param>
    /// <param name="work">A region's work; it throws to fail the region.</param>
    /// <param name="report">Prints a region's result and returns how many failures (unreadable chunks) it reported.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The exit code: 0 when nothing failed, 1 otherwise, 130 when interrupted.</returns>
    /// <param name="remote">On a cluster: what a silo is told for a region, and how its result is read back.</param>
    public async Task<int> RunAsync<T>(
        IReadOnlyList<string> regions,
        Func<string, CancellationToken, ValueTask<T>> work,
        Func<string, T, ValueTask<int>> report,
        CancellationToken cancellationToken,
        (Func<string, string> Payload, Func<string, T> Parse)? remote = null)
    {
#if MILLRACE_CLUSTER
        if (Cluster is { } cluster && remote is var (payload, parse))
        {
            return await RunOnClusterAsync(cluster, regions, payload, parse, report, cancellationToken);
        }
#endif

        var display = new ProgressDisplay(console.Error, console.IsTerminal, activity, "regions");
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = parallel,
            Ordered = true,
            Metrics = false,
            Progress = new() { Interval = display.Interval, Total = regions.Count, OnProgress = progress => display.Report(progress) },
        };
        // Regions are reported in order, so when the run is cut short some that ended (a prune's written) may not be
        // reported yet: the line counts what ended, not what was printed.
        var (done, failures, ended) = (0, 0, 0);
        async ValueTask<T> Counted(string region, CancellationToken token)
        {
            var value = await work(region, token);
            Interlocked.Increment(ref ended);
            return value;
        }

        try
        {
            await display.RunAsync(regions.Count, async () =>
            {
                await foreach (var result in regions.SelectParallelResultsStreamAsync(Counted, options, cancellationToken))
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
            await console.Error.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"millrace: cancelled: {activity} stopped after {Volatile.Read(ref ended)} of {regions.Count} region files ({done} reported)"));
            return ExitCodes.Interrupted;
        }

        return failures == 0 ? ExitCodes.Success : ExitCodes.BadInput;
    }

#if MILLRACE_CLUSTER
    private async Task<int> RunOnClusterAsync<T>(
        ClusterSubmission cluster, IReadOnlyList<string> regions, Func<string, string> payload, Func<string, T> parse, Func<string, T, ValueTask<int>> report, CancellationToken cancellationToken)
    {
        var display = new ProgressDisplay(console.Error, console.IsTerminal, activity, "regions");
        var items = regions.Select((region, i) => new Millrace.Cluster.Jobs.WorkItem(i.ToString(CultureInfo.InvariantCulture), payload(Path.GetFullPath(region)))).ToList();
        IReadOnlyList<Millrace.Cluster.Jobs.JobItemOutcome> outcomes;
        try
        {
            (outcomes, _) = await ClusterBatch.RunJobAsync(cluster, WorldRegionHandler.Name, items, display, static () => { }, console, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The job's fate (detached, cancelled) is said; the regions it ran are its own to report.
            return ExitCodes.Interrupted;
        }

        var failures = 0;
        foreach (var outcome in outcomes.OrderBy(o => o.Index))
        {
            var region = regions[(int)outcome.Index];
            if (outcome.Error is { } error)
            {
                failures++;
                console.ReportError(region, error);
            }
            else
            {
                failures += await report(region, parse(outcome.Result!));
            }
        }

        return failures == 0 ? ExitCodes.Success : ExitCodes.BadInput;
    }
#endif

    /// <summary>Reports a region's unreadable chunks, each located by its coordinates, and returns how many there were.</summary>
    public static int ReportChunkErrors(CliConsole console, string region, IReadOnlyList<ChunkFailure> failures)
    {
        foreach (var failure in failures)
        {
            var error = failure.ToError();
            console.ReportError(region, error with { Message = string.Create(CultureInfo.InvariantCulture, $"chunk {failure.X} {failure.Z} of the region: {error.Message}") });
        }

        return failures.Count;
    }
}

#if MILLRACE_CLUSTER
using System.Diagnostics;
using System.Globalization;
using Microsoft.Extensions.Hosting;
using Millrace.Cli.Batch;
using Millrace.Cli.Formats;
using Millrace.Cluster.Jobs;
using Millrace.Cluster.RateLimit;
using Millrace.Parallel;
using Millrace.Parallel.Progress;
using Millrace.Parallel.Retry;

namespace Millrace.Cli.Cluster;

/// <summary>
/// The <c>--cluster</c> path of <c>batch convert</c>: the files become a cluster job run by the silos' built-in
/// <see cref="ConvertFileHandler"/>, and this process only submits it, shows its progress and reports its outcomes as a
/// local batch does. The job is named, so submitting the same batch again under the same <c>--job</c> name re-attaches to
/// it (nothing is converted twice on purpose). Ctrl+C detaches (the job goes on; <c>millrace cluster status NAME</c>
/// follows it) unless <c>--cancel-on-interrupt</c> is given, which cancels the job first.
/// </summary>
internal static class ClusterBatch
{
    public static async Task<IReadOnlyList<ItemResult<string>>> RunAsync(
        ClusterSubmission submission,
        IReadOnlyList<(string Input, FileFormatKind Format, string Output)> files,
        ConvertPayload template,
        ProgressDisplay display,
        Action converted,
        CliConsole console,
        CancellationToken cancellationToken)
    {
        var items = files.Select((f, i) => new WorkItem(
            i.ToString(CultureInfo.InvariantCulture),
            (template with { Input = f.Input, Output = f.Output, From = f.Format }).ToJson())).ToList();
        var (outcomes, bySilo) = await RunJobAsync(submission, ConvertFileHandler.Name, items, display, converted, console, cancellationToken);
        await using var output = console.CreateTextOutput();
        foreach (var (silo, throughput) in bySilo.OrderBy(s => s.Key, StringComparer.Ordinal))
        {
            await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"silo {silo}: {throughput.Converted} files converted, {throughput.PerSecond:0.0} files/s"));
        }

        return [.. outcomes.Select(outcome => new ItemResult<string>(
            outcome.Index,
            outcome.Error is { } error ? Result<string>.Failure(error) : Result<string>.Success(outcome.Key)))];
    }

    /// <summary>
    /// Submits a job of <paramref name="items"/> to <paramref name="handler"/> on the cluster and watches it to its end,
    /// showing its progress; returns every item's outcome (in the order they were recorded) and each silo's share. Ctrl+C
    /// detaches from the job, or cancels it with <see cref="ClusterSubmission.CancelOnInterrupt"/>, saying which, and
    /// throws the cancellation.
    /// </summary>
    public static async Task<(IReadOnlyList<JobItemOutcome> Outcomes, IReadOnlyDictionary<string, SiloThroughput> BySilo)> RunJobAsync(
        ClusterSubmission submission,
        string handler,
        IReadOnlyList<WorkItem> items,
        ProgressDisplay display,
        Action succeeded,
        CliConsole console,
        CancellationToken cancellationToken)
    {
        // Ctrl+C says what became of the job at every step: before the connection nothing was sent; during the
        // submission the job may have reached the cluster (its last step, the start, can land after the interruption);
        // while it is watched, it runs.
        IHost host;
        try
        {
            host = await ClusterConnection.ConnectAsync(submission.Cluster, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            await console.Error.WriteLineAsync($"millrace: interrupted before cluster job {submission.JobName} was submitted: nothing was sent");
            throw;
        }

        using var connection = host;
        var jobs = new ClusterJobs(host.Client());
        var submitted = false;
        // An item (a file, a region) takes milliseconds to seconds: a dead silo's items wait 10 s for other silos, not the default 30.
        var options = new ClusterJobOptions
        {
            Retry = new RetryOptions { MaxRetryAttempts = submission.Retries, Delay = TimeSpan.FromMilliseconds(50) },
            LeaseTimeout = TimeSpan.FromSeconds(10),
            RateLimit = submission.RatePerSecond is { } permits ? new ClusterRateLimitOptions { Name = submission.JobName, PermitsPerPeriod = permits } : null,
        };
        try
        {
            await jobs.SubmitAsync(submission.JobName, handler, items, options, cancellationToken);
            submitted = true;
            var bySilo = new Dictionary<string, SiloThroughput>(StringComparer.Ordinal);
            var outcomes = await display.RunAsync(items.Count, () => WatchAsync(jobs, submission.JobName, items.Count, display, succeeded, bySilo, cancellationToken));
            return (outcomes, bySilo);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Cancelling a job that never reached the cluster does nothing; one that did is stopped, started or not.
            if (submission.CancelOnInterrupt)
            {
                await jobs.CancelAsync(submission.JobName, CancellationToken.None);
                await console.Error.WriteLineAsync($"millrace: cancelled cluster job {submission.JobName}");
            }
            else if (submitted)
            {
                await console.Error.WriteLineAsync($"millrace: detached: cluster job {submission.JobName} goes on; follow it with 'millrace cluster status {submission.JobName} --cluster {submission.ClusterText}'");
            }
            else
            {
                await console.Error.WriteLineAsync($"millrace: interrupted while submitting cluster job {submission.JobName}: it may have been submitted; 'millrace cluster status {submission.JobName} --cluster {submission.ClusterText}' says, and the same command re-attaches to it");
            }

            throw;
        }
    }

    private static async Task<IReadOnlyList<JobItemOutcome>> WatchAsync(
        ClusterJobs jobs, string jobId, int total, ProgressDisplay display, Action succeeded, Dictionary<string, SiloThroughput> bySilo, CancellationToken cancellationToken)
    {
        var outcomes = new List<JobItemOutcome>(total);
        var clock = Stopwatch.StartNew();
        var lastReport = TimeSpan.Zero;
        long failed = 0;
        await foreach (var outcome in jobs.WatchAsync(jobId, TimeSpan.FromMilliseconds(100), cancellationToken))
        {
            failed += outcome.Succeeded ? 0 : 1;
            if (outcome.Succeeded)
            {
                succeeded();
                bySilo[outcome.Silo] = bySilo.GetValueOrDefault(outcome.Silo).Add(outcome.CompletedAt);
            }

            outcomes.Add(outcome);
            if (clock.Elapsed - lastReport >= display.Interval)
            {
                lastReport = clock.Elapsed;
                display.Report(Progress(outcomes.Count, failed, total, clock.Elapsed, isFinal: false), Silos(bySilo));
            }
        }

        display.Report(Progress(outcomes.Count, failed, total, clock.Elapsed, isFinal: true), Silos(bySilo));
        return outcomes;
    }

    private static List<SiloProgress> Silos(Dictionary<string, SiloThroughput> bySilo) =>
        [.. bySilo.OrderBy(s => s.Key, StringComparer.Ordinal).Select(s => new SiloProgress(s.Key, s.Value.Converted, s.Value.PerSecond))];

    private static ParallelProgress Progress(long done, long failed, long total, TimeSpan elapsed, bool isFinal)
    {
        var rate = elapsed.TotalSeconds > 0 ? done / elapsed.TotalSeconds : 0;
        TimeSpan? remaining = rate > 0 ? TimeSpan.FromSeconds((total - done) / rate) : null;
        return new ParallelProgress(done, done - failed, failed, 0, total, elapsed, rate, remaining, isFinal);
    }
}

/// <summary>
/// One silo's share of a batch: the files it converted and its rate between its first and last, by the recording times
/// (a re-attached batch counts what was converted before it too, at the rate it was converted then).
/// </summary>
internal readonly record struct SiloThroughput(int Converted, DateTimeOffset First, DateTimeOffset Last)
{
    public double PerSecond => Converted / Math.Max((Last - First).TotalSeconds, 1.0);

    public SiloThroughput Add(DateTimeOffset at) => Converted == 0 ? new(1, at, at) : new(Converted + 1, at < First ? at : First, at > Last ? at : Last);
}

/// <summary>Where and how <c>batch convert --cluster</c> submits its job.</summary>
/// <param name="Cluster">Where the cluster is.</param>
/// <param name="ClusterText">The <c>--cluster</c> value, to repeat in messages.</param>
/// <param name="JobName">The job's name: the same name re-attaches to the same batch.</param>
/// <param name="Retries">Retries of a failed file, on the silo that runs it.</param>
/// <param name="RatePerSecond">Files started per second over every silo together (a cluster-wide rate limit named after the job), if limited.</param>
/// <param name="CancelOnInterrupt">Whether Ctrl+C cancels the job rather than detaching from it.</param>
internal sealed record ClusterSubmission(ClusterAddress Cluster, string ClusterText, string JobName, int Retries, int? RatePerSecond, bool CancelOnInterrupt);
#endif

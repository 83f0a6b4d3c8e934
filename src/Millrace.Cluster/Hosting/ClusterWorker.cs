using System.Collections.Concurrent;
using System.Globalization;
using System.Threading.RateLimiting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Millrace.Cluster.Jobs;
using Millrace.Parallel;
using Millrace.Parallel.Resilience;

namespace Millrace.Cluster.Hosting;

/// <summary>
/// A silo's worker: while it has capacity it leases items of the running jobs whose handler it has, runs each lease
/// through Millrace.Parallel with the job's pipeline (<see cref="PipelineOf"/>), renews the lease while it runs and
/// reports the outcomes.
/// It pulls, so a silo holds no more than it can run plus one lease waiting (a slot that frees finds its next item here
/// rather than a network round trip away), and a new silo takes work as soon as it joins.
/// </summary>
internal sealed partial class ClusterWorker(
    IGrainFactory grains,
    IServiceProvider services,
    ILocalSiloDetails silo,
    IHostApplicationLifetime lifetime,
    IOptions<ClusterWorkerOptions> options,
    SharedLimits limits,
    [FromKeyedServices(ClusterHostingConstants.TimeProviderKey)] TimeProvider time,
    ILogger<ClusterWorker> logger) : BackgroundService
{
    private readonly ClusterWorkerOptions _options = options.Value;
    // Neither the semaphore nor the slots are disposed: no wait handle is ever asked of the semaphore, and disposing the
    // slots would fail the attempts still waiting for one when a host's shutdown timed out.
    private readonly SemaphoreSlim _freed = new(0);

    // The silo's slots, shared by every lease of every job: the innermost gate of each job's pipeline, so that an item
    // waiting for its job's breaker or permits, or in a retry's backoff, holds none and another job's items run meanwhile.
    private readonly ConcurrencyLimiter _slots = new(new ConcurrencyLimiterOptions
    {
        PermitLimit = options.Value.MaxDegreeOfParallelism,
        QueueLimit = int.MaxValue,
        QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
    });

    private readonly ConcurrentDictionary<string, ResiliencePipeline> _pipelines = new(StringComparer.Ordinal);
    private readonly HashSet<string> _dry = new(StringComparer.Ordinal);
    private volatile IReadOnlyList<JobDefinition>? _jobs;
    private long _jobsReadAt;
    private int _held;
    private int _rotation;

    private string SiloName => silo.Name;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        // Grain calls need the silo to be up: wait for the host to finish starting.
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using (lifetime.ApplicationStarted.Register(() => started.TrySetResult()))
        using (stoppingToken.Register(() => started.TrySetCanceled(stoppingToken)))
        {
            await started.Task.ConfigureAwait(false);
        }

        var running = new List<Task>();
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                var took = false;
                try
                {
                    took = await LeaseWhileRoomAsync(running, stoppingToken).ConfigureAwait(false);
                }
                catch (Exception exception) when (exception is not OperationCanceledException || !stoppingToken.IsCancellationRequested)
                {
                    // A silo that holds a job's grains may be down for a moment; the next poll asks again.
                    LogPollFailed(logger, exception.Message);
                }

                running.RemoveAll(t => t.IsCompleted);
                if (!took || Volatile.Read(ref _held) >= _options.MaxDegreeOfParallelism)
                {
                    await WaitForRoomOrPollAsync(stoppingToken).ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The silo is stopping: items in flight are cancelled, and each lease reports them unfinished, so they are free again.
        }
        finally
        {
            await Task.WhenAll(running).ConfigureAwait(false);
        }
    }

    /// <summary>Leases items until the silo is full or no job has free items.</summary>
    /// <returns>Whether any lease was taken.</returns>
    private async Task<bool> LeaseWhileRoomAsync(List<Task> running, CancellationToken stoppingToken)
    {
        var jobs = await RunningJobsAsync().ConfigureAwait(false);
        var took = false;

        // Silos take turns between jobs, and each starts its scan of a job's partitions at a place of its own and keeps it:
        // it drains one partition before moving on, so silos seldom ask the same partition and few partitions are active.
        var start = SiloName.GetHashCode(StringComparison.Ordinal);
        var rotation = Interlocked.Increment(ref _rotation) + start;
        for (var j = 0; j < jobs.Count; j++)
        {
            var job = jobs[(int)((uint)(rotation + j) % (uint)jobs.Count)];
            if (services.GetKeyedService<IWorkItemHandler>(job.Handler) is not { } handler
                || (job.Options.CircuitBreaker is { } breaker && limits.CircuitBreaker(breaker).IsOpen))
            {
                // Not a job this silo can run, or not now: its items would only wait here while other silos could take them.
                continue;
            }

            // A lease round trip is shared by the items it brings: with work held, wait until a lease's worth of room (half
            // of one, at least one item) is free rather than asking for one item each time one ends. Room counts one lease
            // beyond the slots, so the next items are here before the running ones end.
            var lease = Math.Min(job.Options.LeaseSize, _options.MaxDegreeOfParallelism);
            var least = Volatile.Read(ref _held) == 0 ? 1 : Math.Max(1, lease / 2);
            for (var p = 0; p < job.Partitions; p++)
            {
                var room = _options.MaxDegreeOfParallelism + lease - Volatile.Read(ref _held);
                if (room < least)
                {
                    // Not enough room for this job's leases; another job's smaller ones may fit.
                    break;
                }

                var key = job.PartitionKey((int)((uint)(start + p) % (uint)job.Partitions));
                if (_dry.Contains(key))
                {
                    continue;
                }

                var partition = grains.GetGrain<IJobPartitionGrain>(key);
                Lease? taken;
                try
                {
                    taken = await partition.TakeLeaseAsync(SiloName, Math.Min(room, job.Options.LeaseSize)).ConfigureAwait(false);
                }
                catch (Exception exception) when (exception is not OperationCanceledException || !stoppingToken.IsCancellationRequested)
                {
                    // Its silo died and the cluster has not moved the grain yet: the other partitions still have work.
                    LogPollFailed(logger, exception.Message);
                    taken = null;
                }

                if (taken is null)
                {
                    // Nothing free there now (or not reachable); items come free again only when a lease ends unreported,
                    // so ask again after the next poll interval rather than on every round.
                    _dry.Add(key);
                    continue;
                }

                Interlocked.Add(ref _held, taken.Items.Count);
                running.Add(RunLeaseAsync(job, partition, taken, handler, stoppingToken));
                took = true;
            }
        }

        return took;
    }

    /// <summary>The running jobs, read from the directory at most once per poll interval (every silo asks the one grain).</summary>
    private async Task<IReadOnlyList<JobDefinition>> RunningJobsAsync()
    {
        if (_jobs is null || time.GetElapsedTime(_jobsReadAt) >= _options.PollInterval)
        {
            var jobs = await grains.GetGrain<IJobDirectoryGrain>(0).ListAsync().ConfigureAwait(false);
            _jobs = jobs;
            _jobsReadAt = time.GetTimestamp();
            _dry.Clear();
            foreach (var jobId in _pipelines.Keys.Where(id => !jobs.Any(j => j.JobId == id)))
            {
                _pipelines.TryRemove(jobId, out _);
            }
        }

        return _jobs;
    }

    private async Task WaitForRoomOrPollAsync(CancellationToken stoppingToken)
    {
        // Woken early when a lease ends and frees room; else polls, so new jobs and expired leases are found.
        using var poll = new CancellationTokenSource(_options.PollInterval, time);
        using var either = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken, poll.Token);
        try
        {
            await _freed.WaitAsync(either.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (!stoppingToken.IsCancellationRequested)
        {
            // Time to poll.
        }
    }

    private async Task RunLeaseAsync(JobDefinition job, IJobPartitionGrain partition, Lease lease, IWorkItemHandler handler, CancellationToken stoppingToken)
    {
        // All of the lease's items at once: the silo's slots, the pipeline's innermost gate, bound what runs.
        ParallelOperatorOptions options;
        try
        {
            options = new ParallelOperatorOptions
            {
                MaxDegreeOfParallelism = Math.Max(1, lease.Items.Count),
                OperationName = job.JobId,
                Pipeline = PipelineOf(job, handler),
                TimeProvider = time,
            };
        }
        catch (ArgumentException exception)
        {
            // Options this silo cannot run (a job submitted by a client that checks them otherwise): every item fails with
            // why, rather than going back to be leased again without end.
            var error = new Error(ClusterErrorCodes.ItemFailed, $"The job's options cannot run on this silo: {exception.Message}");
            FreeRoom(lease.Items.Count);
            await ReportAsync(partition, lease, [.. lease.Items.Select(i => new ItemReport(i.Index, error with { ItemIndex = i.Index }))], stopping: false).ConfigureAwait(false);
            return;
        }

        using var leaseEnd = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
        var renewing = RenewWhileRunningAsync(job, partition, lease, leaseEnd);
        var unfinished = lease.Items.Count;
        var reports = new List<ItemReport>(lease.Items.Count);
        try
        {
            await foreach (var result in lease.Items.SelectParallelResultsStreamAsync(
                (item, ct) => RunItemAsync(job, handler, item.Item, leaseEnd, ct), options, leaseEnd.Token).ConfigureAwait(false))
            {
                var index = lease.Items[(int)result.Index].Index;
                reports.Add(result.Result.TryGetValue(out var produced)
                    ? new ItemReport(index, null, produced)
                    : new ItemReport(index, ClusterErrors.ForItem(result.Result.Error, index, handler)));

                // Each item frees its room as it ends, so one slow item does not hold its lease's siblings' room.
                unfinished--;
                FreeRoom(1);
            }
        }
        catch (OperationCanceledException) when (leaseEnd.IsCancellationRequested)
        {
            // The silo is stopping, the job was cancelled or the lease was lost: the items still running were cancelled.
        }
        finally
        {
            await leaseEnd.CancelAsync().ConfigureAwait(false);
            await renewing.ConfigureAwait(false);
            FreeRoom(unfinished);
        }

        // Reporting ends the lease: the items that ended are recorded, and those cut short (a silo stopping in order) are
        // free for other silos at once instead of waiting out the lease timeout.
        await ReportAsync(partition, lease, reports, stopping: stoppingToken.IsCancellationRequested).ConfigureAwait(false);
    }

    /// <summary>
    /// A job's pipeline on this silo, built once per job: the job's retry (its handler deciding which failures are worth
    /// another attempt), then per attempt this silo's local breaker for the job's shared one (holding while open), its
    /// shared rate limit (one permit), one of the silo's slots, and the attempt's timeout, which so counts none of those
    /// waits.
    /// </summary>
    private ResiliencePipeline PipelineOf(JobDefinition job, IWorkItemHandler handler) => _pipelines.GetOrAdd(job.JobId, _ =>
    {
        var options = job.Options;
        var builder = new ResiliencePipelineBuilder { TimeProvider = time };
        if (options.Retry is { MaxRetryAttempts: > 0 } retry)
        {
            builder.AddRetry(retry with { ShouldHandle = handler.ShouldRetry });
        }

        if (options.CircuitBreaker is { } breaker)
        {
            builder.AddCircuitBreaker(limits.CircuitBreaker(breaker).Breaker);
        }

        if (options.RateLimit is { } rateLimit)
        {
            builder.AddRateLimiter(limits.RateLimiter(rateLimit));
        }

        builder.AddRateLimiter(_slots);
        if (options.PerAttemptTimeout is { } timeout)
        {
            builder.AddTimeout(timeout);
        }

        return builder.Build();
    });

    /// <summary>One attempt's work, once it holds a slot: the handler, unless the job ended while the item waited.</summary>
    private async ValueTask<string?> RunItemAsync(JobDefinition job, IWorkItemHandler handler, WorkItem item, CancellationTokenSource leaseEnd, CancellationToken cancellationToken)
    {
        // An item that waited for its slot may belong to a job cancelled or failed meanwhile: the job list, read every
        // poll, says so well before the lease's next renewal would.
        if (_jobs is { } jobs && !jobs.Any(j => j.JobId == job.JobId))
        {
            await leaseEnd.CancelAsync().ConfigureAwait(false);
            leaseEnd.Token.ThrowIfCancellationRequested();
        }

        var result = await handler.HandleWithResultAsync(item, cancellationToken).ConfigureAwait(false);
        return result is { Length: > ClusterJobConstants.MaxResultLength }
            ? throw new MillraceException(new Error(ClusterErrorCodes.ResultTooLong, string.Create(CultureInfo.InvariantCulture, $"The handler returned {result.Length} characters; a result holds at most {ClusterJobConstants.MaxResultLength}.")))
            : result;
    }

    private void FreeRoom(int items)
    {
        if (items > 0)
        {
            Interlocked.Add(ref _held, -items);
            _freed.Release();
        }
    }

    /// <summary>Renews the lease three times per timeout while its items run; a refused renewal cancels them.</summary>
    private async Task RenewWhileRunningAsync(JobDefinition job, IJobPartitionGrain partition, Lease lease, CancellationTokenSource leaseEnd)
    {
        var period = job.Options.LeaseTimeout / 3;
        try
        {
            while (true)
            {
                await Task.Delay(period, time, leaseEnd.Token).ConfigureAwait(false);
                bool renewed;
                try
                {
                    renewed = await partition.RenewAsync(lease.Id).ConfigureAwait(false);
                }
                catch (Exception exception) when (exception is not OperationCanceledException)
                {
                    // The partition's silo may be restarting; the next renewal may reach it, and if the lease is lost the
                    // items simply run again elsewhere.
                    LogRenewFailed(logger, job.JobId, exception.Message);
                    continue;
                }

                if (!renewed)
                {
                    await leaseEnd.CancelAsync().ConfigureAwait(false);
                    return;
                }
            }
        }
        catch (OperationCanceledException) when (leaseEnd.IsCancellationRequested)
        {
            // The lease ended.
        }
    }

    /// <summary>
    /// Reports a lease's outcomes, three times at most (once when the silo is stopping), and never throws: a report lost
    /// for good only means the lease expires and its items run again.
    /// </summary>
    private async Task ReportAsync(IJobPartitionGrain partition, Lease lease, List<ItemReport> reports, bool stopping)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await partition.CompleteAsync(lease.Id, SiloName, reports).WaitAsync(ReportTimeout, time).ConfigureAwait(false);
                return;
            }
            catch (Exception exception) when (exception is not OperationCanceledException)
            {
                LogReportFailed(logger, attempt, exception.Message);
                if (stopping || attempt == 3)
                {
                    return;
                }

                await Task.Delay(_options.PollInterval, time).ConfigureAwait(false);
            }
        }
    }

    /// <summary>How long a report may take before it counts as failed.</summary>
    private static readonly TimeSpan ReportTimeout = TimeSpan.FromSeconds(5);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Asking the cluster for work failed: {Reason}")]
    private static partial void LogPollFailed(ILogger logger, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Renewing a lease of job {JobId} failed: {Reason}")]
    private static partial void LogRenewFailed(ILogger logger, string jobId, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Reporting outcomes failed (attempt {Attempt}): {Reason}")]
    private static partial void LogReportFailed(ILogger logger, int attempt, string reason);
}

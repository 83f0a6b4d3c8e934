using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Millrace.Cluster.Grains;
using Millrace.Cluster.Jobs;
using Millrace.Parallel;

namespace Millrace.Cluster.Hosting;

/// <summary>
/// A silo's worker: while it has capacity it leases items of the running jobs whose handler it has, runs each lease
/// through Millrace.Parallel with the job's retries and timeout, renews the lease while it runs and reports the outcomes.
/// It pulls, so a silo never holds more work than it can run, and a new silo takes work as soon as it joins.
/// </summary>
internal sealed partial class ClusterWorker(
    IGrainFactory grains,
    IServiceProvider services,
    ILocalSiloDetails silo,
    IHostApplicationLifetime lifetime,
    IOptions<ClusterWorkerOptions> options,
    ILogger<ClusterWorker> logger) : BackgroundService
{
    private readonly ClusterWorkerOptions _options = options.Value;
    private readonly TimeProvider _time = services.GetService<TimeProvider>() ?? TimeProvider.System;
    private readonly SemaphoreSlim _freed = new(0);
    private int _running;
    private int _rotation;

    private string SiloName => silo.Name;

    public override void Dispose()
    {
        _freed.Dispose();
        base.Dispose();
    }

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
                if (!took || Volatile.Read(ref _running) >= _options.MaxDegreeOfParallelism)
                {
                    await WaitForRoomOrPollAsync(stoppingToken).ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The silo is stopping: items in flight are cancelled, their leases expire and go to other silos.
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
        var jobs = await grains.GetGrain<IJobDirectoryGrain>(0).ListAsync().ConfigureAwait(false);
        var took = false;

        // Silos start their scan at different jobs and partitions, so they do not all ask the same partition first.
        var rotation = Interlocked.Increment(ref _rotation) + SiloName.GetHashCode(StringComparison.Ordinal);
        for (var j = 0; j < jobs.Count; j++)
        {
            var job = jobs[(int)((uint)(rotation + j) % (uint)jobs.Count)];
            if (services.GetKeyedService<IWorkItemHandler>(job.Handler) is not { } handler)
            {
                continue;
            }

            for (var p = 0; p < job.Partitions; p++)
            {
                var room = _options.MaxDegreeOfParallelism - Volatile.Read(ref _running);
                if (room <= 0)
                {
                    return took;
                }

                var partition = grains.GetGrain<IJobPartitionGrain>(job.PartitionKey((int)((uint)(rotation + p) % (uint)job.Partitions)));
                var lease = await partition.TakeLeaseAsync(SiloName, Math.Min(room, job.Options.LeaseSize)).ConfigureAwait(false);
                if (lease is null)
                {
                    continue;
                }

                Interlocked.Add(ref _running, lease.Items.Count);
                running.Add(RunLeaseAsync(job, partition, lease, handler, stoppingToken));
                took = true;
            }
        }

        return took;
    }

    private async Task WaitForRoomOrPollAsync(CancellationToken stoppingToken)
    {
        // Woken early when a lease ends and frees room; else polls, so new jobs and expired leases are found.
        await _freed.WaitAsync(_options.PollInterval, stoppingToken).ConfigureAwait(false);
    }

    private async Task RunLeaseAsync(JobDefinition job, IJobPartitionGrain partition, Lease lease, IWorkItemHandler handler, CancellationToken stoppingToken)
    {
        using var leaseEnd = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
        var renewing = RenewWhileRunningAsync(job, partition, lease, leaseEnd);
        try
        {
            var results = await lease.Items.SelectParallelResultsAsync(
                async (item, ct) =>
                {
                    await handler.HandleAsync(item.Item, ct).ConfigureAwait(false);
                    return true;
                },
                job.Options.ToParallelOptions(lease.Items.Count),
                leaseEnd.Token).ConfigureAwait(false);
            var reports = new ItemReport[results.Length];
            for (var i = 0; i < results.Length; i++)
            {
                var index = lease.Items[(int)results[i].Index].Index;
                reports[i] = new ItemReport(index, results[i].IsSuccess ? null : ClusterErrors.ForItem(results[i].Result.Error, index));
            }

            await leaseEnd.CancelAsync().ConfigureAwait(false);
            await ReportAsync(partition, lease, reports, stoppingToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (leaseEnd.IsCancellationRequested)
        {
            // The silo is stopping, the job was cancelled or the lease was lost: nothing is reported, the lease expires.
        }
        finally
        {
            await leaseEnd.CancelAsync().ConfigureAwait(false);
            await renewing.ConfigureAwait(false);
            Interlocked.Add(ref _running, -lease.Items.Count);
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
                await Task.Delay(period, _time, leaseEnd.Token).ConfigureAwait(false);
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

    /// <summary>Reports a lease's outcomes, trying a few times: a report lost for good only means the items run again.</summary>
    private async Task ReportAsync(IJobPartitionGrain partition, Lease lease, ItemReport[] reports, CancellationToken stoppingToken)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await partition.CompleteAsync(lease.Id, SiloName, reports).ConfigureAwait(false);
                return;
            }
            catch (Exception exception) when (exception is not OperationCanceledException && attempt < 3)
            {
                LogReportFailed(logger, attempt, exception.Message);
                await Task.Delay(_options.PollInterval, _time, stoppingToken).ConfigureAwait(false);
            }
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Asking the cluster for work failed: {Reason}")]
    private static partial void LogPollFailed(ILogger logger, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Renewing a lease of job {JobId} failed: {Reason}")]
    private static partial void LogRenewFailed(ILogger logger, string jobId, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Reporting outcomes failed (attempt {Attempt}): {Reason}")]
    private static partial void LogReportFailed(ILogger logger, int attempt, string reason);
}

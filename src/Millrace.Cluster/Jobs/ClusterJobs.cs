using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using Millrace.Parallel.Resilience;
using Millrace.Parallel.Retry;

namespace Millrace.Cluster.Jobs;

/// <summary>
/// Submits, watches, queries and cancels cluster jobs, from a silo or from a client connected to the cluster. A job is a
/// durable, named set of work items: once submitted, it runs to the end across whatever silos are up, survives the
/// restart of all of them, and records each item's outcome once. Every call rides out a silo's death: a call that fails
/// because a silo is gone and the cluster has not yet noticed (its connection refused, its message rejected, or timed
/// out) is made again, every half second for up to two minutes, before its error is thrown.
/// </summary>
/// <param name="grains">The cluster's grain factory: an <c>IClusterClient</c>, or a silo's <c>IGrainFactory</c>.</param>
/// <param name="timeProvider">The clock of the calls' retries and time limits and of the watch's polls; <see cref="TimeProvider.System"/> when <see langword="null"/>.</param>
public sealed class ClusterJobs(IGrainFactory grains, TimeProvider? timeProvider = null)
{
    private readonly IGrainFactory _grains = grains ?? throw new ArgumentNullException(nameof(grains));
    private readonly TimeProvider _time = timeProvider ?? TimeProvider.System;

    /// <summary>
    /// Submits a job. Submitting the same job again (same name, handler, options and items) is harmless, so a submission
    /// cut short can simply be retried, as each of its steps is when a silo is gone; a different job under a used name is refused.
    /// </summary>
    /// <param name="jobId">The job's name: not empty, without <c>/</c>.</param>
    /// <param name="handler">The name the items' handler is registered under on the silos.</param>
    /// <param name="items">The items; their keys must be unique.</param>
    /// <param name="options">Leases, retries and timeouts; <see cref="ClusterJobOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the submission (a job half submitted is not started, and can be submitted again).</param>
    /// <returns>A task that completes when silos can lease the job's items.</returns>
    /// <exception cref="ArgumentException">An argument or option is invalid, or a different job has this name.</exception>
    public async Task SubmitAsync(string jobId, string handler, IEnumerable<WorkItem> items, ClusterJobOptions? options = null, CancellationToken cancellationToken = default)
    {
        ValidateJobId(jobId);
        ArgumentException.ThrowIfNullOrWhiteSpace(handler);
        ArgumentNullException.ThrowIfNull(items);
        options ??= ClusterJobOptions.Default;
        options.Validate();
        var all = items.ToList();
        if (all.Count > ClusterJobConstants.MaxItems)
        {
            throw new ArgumentException($"A job has at most {ClusterJobConstants.MaxItems:N0} items; this one has {all.Count:N0}.", nameof(items));
        }

        var keys = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < all.Count; i++)
        {
            if (all[i] is null || !keys.Add(all[i].Key))
            {
                throw new ArgumentException(all[i] is null ? $"Item {i} is null." : $"Item {i}'s key '{all[i].Key}' is used by an earlier item.", nameof(items));
            }
        }

        var definition = new JobDefinition(jobId, handler, options, all.Count);
        var job = _grains.GetGrain<IJobGrain>(jobId);
        if (!await CallAsync(job.PrepareAsync, definition, cancellationToken).ConfigureAwait(false))
        {
            throw new ArgumentException($"A different job named '{jobId}' was already submitted.", nameof(jobId));
        }

        for (var p = 0; p < definition.Partitions; p++)
        {
            var first = p * ClusterJobConstants.PartitionSize;
            var slice = all.GetRange(first, Math.Min(ClusterJobConstants.PartitionSize, all.Count - first));
            var partition = _grains.GetGrain<IJobPartitionGrain>(definition.PartitionKey(p));
            await CallAsync(static state => state.partition.InitializeAsync(state.definition, state.p, state.first, state.slice), (partition, definition, p, first, slice), cancellationToken).ConfigureAwait(false);
        }

        await CallAsync(static job => job.StartAsync(), job, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Gets a job's counts; its <see cref="ClusterJobStatus.State"/> is <see cref="ClusterJobState.Unknown"/> for a name never submitted.</summary>
    /// <param name="jobId">The job's name.</param>
    /// <param name="cancellationToken">Stops waiting for the answer.</param>
    /// <returns>The status.</returns>
    public Task<ClusterJobStatus> GetStatusAsync(string jobId, CancellationToken cancellationToken = default)
    {
        ValidateJobId(jobId);
        return CallAsync(static job => job.GetStatusAsync(), _grains.GetGrain<IJobGrain>(jobId), cancellationToken);
    }

    /// <summary>Lists the names of the jobs that are running (submitted, and not yet completed or cancelled).</summary>
    /// <param name="cancellationToken">Stops waiting for the answer.</param>
    /// <returns>The job names.</returns>
    public async Task<IReadOnlyList<string>> ListRunningAsync(CancellationToken cancellationToken = default)
    {
        var running = await CallAsync(static directory => directory.ListAsync(), _grains.GetGrain<IJobDirectoryGrain>(0), cancellationToken).ConfigureAwait(false);
        return [.. running.Select(j => j.JobId)];
    }

    /// <summary>Cancels a job: no item is leased after this, items running see their leases refused; outcomes recorded are kept.</summary>
    /// <param name="jobId">The job's name.</param>
    /// <param name="cancellationToken">Stops waiting for the answer.</param>
    /// <returns>A task that completes when the job is cancelled.</returns>
    public Task CancelAsync(string jobId, CancellationToken cancellationToken = default)
    {
        ValidateJobId(jobId);
        return CallAsync(static job => job.CancelAsync(), _grains.GetGrain<IJobGrain>(jobId), cancellationToken);
    }

    /// <summary>
    /// Streams a job's outcomes as they are recorded, each once, and ends when the job has completed, was cancelled or
    /// stopped at its first failure, and
    /// every recorded outcome was read. Outcomes come partition by partition in the order each partition recorded them.
    /// </summary>
    /// <param name="jobId">The job's name.</param>
    /// <param name="pollInterval">How long to wait between two reads of the job; 250 ms when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops watching (the job goes on).</param>
    /// <returns>The outcomes.</returns>
    /// <exception cref="ArgumentException">No job of that name was submitted.</exception>
    public async IAsyncEnumerable<JobItemOutcome> WatchAsync(string jobId, TimeSpan? pollInterval = null, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        ValidateJobId(jobId);
        var interval = pollInterval ?? TimeSpan.FromMilliseconds(250);
        var job = _grains.GetGrain<IJobGrain>(jobId);
        var definition = await CallAsync(static job => job.GetDefinitionAsync(), job, cancellationToken).ConfigureAwait(false)
            ?? throw new ArgumentException($"No job named '{jobId}' was submitted.", nameof(jobId));
        var read = new int[definition.Partitions];
        var unreachableSince = (long?)null;
        var quiet = true;
        while (true)
        {
            var ended = false;
            var fresh = new List<JobItemOutcome>();
            Exception? failure = null;

            // The state is read before the outcomes: once it says the job ended, the reads that follow see every outcome.
            // It is read only after a round that brought nothing (and first): while outcomes come, the job goes on, and
            // a status asks every partition.
            if (quiet)
            {
                try
                {
                    ended = (await job.GetStatusAsync().WaitAsync(CallTimeout, _time, cancellationToken).ConfigureAwait(false)).State is ClusterJobState.Completed or ClusterJobState.Cancelled or ClusterJobState.Failed;
                }
                catch (Exception exception) when (IsTransient(exception) && !cancellationToken.IsCancellationRequested)
                {
                    failure = exception;
                }
            }

            for (var p = 0; p < read.Length; p++)
            {
                if (read[p] == definition.PartitionItems(p))
                {
                    // Every outcome of that partition was read: nothing more can come from it.
                    continue;
                }

                var partition = _grains.GetGrain<IJobPartitionGrain>(definition.PartitionKey(p));
                try
                {
                    IReadOnlyList<JobItemOutcome> batch;
                    for (var position = read[p]; (batch = await partition.ReadOutcomesAsync(position, ClusterJobConstants.PartitionSize).WaitAsync(CallTimeout, _time, cancellationToken).ConfigureAwait(false)).Count > 0; position += batch.Count)
                    {
                        fresh.AddRange(batch);
                    }
                }
                catch (Exception exception) when (IsTransient(exception) && !cancellationToken.IsCancellationRequested)
                {
                    // Its silo died and the cluster has not yet noticed (a call waits out Orleans' 30 s response timeout
                    // until membership moves the grain): the other partitions' outcomes still come, and this one is asked
                    // again next round rather than holding back the whole watch.
                    failure = exception;
                }
            }

            if (failure is null)
            {
                unreachableSince = null;
            }
            else
            {
                // Up to a limit: a cluster that stays unreachable is an error, not a wait without end.
                unreachableSince ??= _time.GetTimestamp();
                if (_time.GetElapsedTime(unreachableSince.Value) > UnreachableLimit)
                {
                    ExceptionDispatchInfo.Throw(failure);
                }
            }

            foreach (var outcome in fresh)
            {
                read[PartitionOf(outcome)]++;
                yield return outcome;
            }

            if (ended && failure is null)
            {
                yield break;
            }

            // Every round asks the partitions, and a partition answers one call at a time: a watcher that went round
            // without pause would hold back the silos leasing and reporting there.
            quiet = fresh.Count == 0;
            await Task.Delay(interval, _time, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>How long <see cref="WatchAsync"/> waits for one call before it goes on without its answer, for this round.</summary>
    internal static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(5);

    /// <summary>How long a call, or <see cref="WatchAsync"/>, goes on through failures (a silo died, the cluster is electing) before it gives up.</summary>
    internal static readonly TimeSpan UnreachableLimit = TimeSpan.FromMinutes(2);

    /// <summary>How long a failed call waits before it is made again.</summary>
    internal static readonly TimeSpan RetryInterval = TimeSpan.FromMilliseconds(500);

    /// <summary>
    /// Makes a call, and makes it again through Millrace.Parallel's retry while it fails on the way to a silo
    /// (<see cref="IsTransient"/>) and <see cref="UnreachableLimit"/> has not passed since the first attempt. A grain
    /// that lived on a silo just killed, or a new one placed there, fails its calls at once (the connection is refused)
    /// until membership declares the silo dead, which takes Orleans' probes tens of seconds on a loaded machine; the call
    /// made again reaches a live silo. Every call here is safe to make twice (a prepared, initialized, started or
    /// cancelled job accepts the same again). A call cancelled while it failed throws the cancellation (a Ctrl+C says
    /// "interrupted"), not the failure.
    /// </summary>
    private async Task<TResult> CallAsync<TState, TResult>(Func<TState, Task<TResult>> call, TState state, CancellationToken cancellationToken)
    {
        var started = _time.GetTimestamp();
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = _time }
            .AddRetry(new RetryOptions
            {
                // The time limit ends the retries; the count is only the most the retry allows.
                MaxRetryAttempts = 1_000,
                BackoffType = BackoffType.Constant,
                Delay = RetryInterval,
                ShouldHandle = exception => IsTransient(exception) && _time.GetElapsedTime(started) < UnreachableLimit,
            })
            .Build();
        return await pipeline.ExecuteAsync(
            static (s, token) => new ValueTask<TResult>(s.call(s.state).WaitAsync(token)),
            (call, state),
            cancellationToken).ConfigureAwait(false);
    }

    private Task<bool> CallAsync<TState>(Func<TState, Task> call, TState state, CancellationToken cancellationToken) =>
        CallAsync(static async s => { await s.call(s.state).ConfigureAwait(false); return true; }, (call, state), cancellationToken);

    private static int PartitionOf(JobItemOutcome outcome) => (int)(outcome.Index / ClusterJobConstants.PartitionSize);

    /// <summary>
    /// Failures a retry may cure: a silo gone or unreachable, a message rejected on the way (Orleans rejects the messages of
    /// a connection that failed), a gateway too busy, and time-outs. Orleans' other errors (a grain's exception it could not
    /// carry, configuration, a missing extension) stay what they are and are thrown at once.
    /// </summary>
    private static bool IsTransient(Exception exception) => exception is
        TimeoutException or SiloUnavailableException or OrleansMessageRejectionException or GatewayTooBusyException
        or Orleans.Runtime.Messaging.ConnectionFailedException
        or Orleans.Runtime.MembershipService.OrleansClusterConnectivityCheckFailedException;

    private static void ValidateJobId(string jobId)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(jobId);
        if (jobId.Contains('/', StringComparison.Ordinal))
        {
            throw new ArgumentException($"A job's name may not contain '/': '{jobId}'.", nameof(jobId));
        }
    }
}

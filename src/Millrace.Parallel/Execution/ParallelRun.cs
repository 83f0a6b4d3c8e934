using System.Collections.Concurrent;
using System.Runtime.ExceptionServices;
using Millrace.Parallel.Adaptive;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Fallback;
using Millrace.Parallel.Metrics;
using Millrace.Parallel.Progress;
using Millrace.Parallel.Resilience;

namespace Millrace.Parallel.Execution;

/// <summary>
/// One run of an operator: long-lived workers, started one per item taken up to the limit, that each take an item, pass it
/// through the run's <see cref="ResiliencePipeline"/>, and hand its outcome to the sink. Outermost first:
/// <list type="number">
/// <item>adaptive concurrency admits the item (<see cref="AdaptiveConcurrencyLimiter"/>, with the sink's room, before the
/// item is taken from the source: it decides how many items a run takes, which no per-attempt gate could);</item>
/// <item>fallback replaces the failure of an item whose attempts are exhausted (<see cref="FallbackStrategy{TSource, TResult}"/>);</item>
/// <item>the pipeline: retry, then each attempt through the gates (rate limiters, breakers) and its timeout, then the body.</item>
/// </list>
/// Progress, metrics and hooks observe every step (<see cref="ProgressReporter"/>, <see cref="RunMetrics"/>). Split by
/// concern: this file starts and stops the run and its workers, and <c>ParallelRun.Outcomes.cs</c> reports how each item
/// ended to the sink, the error mode, progress, metrics and hooks.
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Reliability", "CA1001:Types that own disposable fields should be disposable", Justification = "ExecuteAsync, which every run calls exactly once, disposes them in its finally block.")]
internal sealed partial class ParallelRun<TSource, TResult> : IRunFeedback, IRetryObserver
{
    private readonly ParallelOperatorOptions _options;
    private readonly int _workerLimit;
    private readonly Func<TSource, CancellationToken, ValueTask<TResult>> _body;
    private readonly FallbackStrategy<TSource, TResult>? _fallback;
    private readonly ResultSink<TResult> _sink;
    private readonly bool _deliverFailures;
    private readonly CancellationToken _callerToken;
    private readonly CancellationTokenSource _stop;
    private readonly TimeProvider _time;
    private readonly ParallelHooks? _hooks;
    private readonly RunMetrics? _metrics;
    private readonly TaskCompletionSource _stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private ResiliencePipeline _pipeline = ResiliencePipeline.Empty;
    private bool _ownsPipeline;
    private Action<CircuitStateChange>? _circuitListener;
    private AdaptiveConcurrencyLimiter? _adaptive;
    private ProgressReporter? _progress;
    private ExceptionDispatchInfo? _fatal;
    private ConcurrentQueue<ParallelItemFailure>? _failures;
    private ItemSource<TSource>? _source;
    private int _workers;
    private int _active;

    /// <summary>Initializes a run.</summary>
    /// <param name="options">Validated options.</param>
    /// <param name="body">The work for one item.</param>
    /// <param name="fallback">The value for an item whose attempts are exhausted, if any.</param>
    /// <param name="sink">Where ended items go.</param>
    /// <param name="deliverFailures">Whether failures go to the sink (the outcome operators) instead of the error mode.</param>
    /// <param name="cancellationToken">The caller's token.</param>
    public ParallelRun(
        ParallelOperatorOptions options,
        Func<TSource, CancellationToken, ValueTask<TResult>> body,
        Func<TSource, Exception, TResult>? fallback,
        ResultSink<TResult> sink,
        bool deliverFailures,
        CancellationToken cancellationToken)
    {
        _options = options;
        _workerLimit = options.WorkerLimit;
        _body = body;
        _fallback = fallback is null ? null : new FallbackStrategy<TSource, TResult>(fallback);
        _sink = sink;
        _deliverFailures = deliverFailures;
        _callerToken = cancellationToken;
        _stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _time = options.TimeProvider;
        _hooks = options.Hooks;
        _metrics = options.Metrics ? new RunMetrics(options.OperationName) : null;
    }

    /// <summary>Stops the run: no item starts after this, and the items in flight see cancellation.</summary>
    public void Cancel() => StopWorkers();

    /// <summary>Runs every item of <paramref name="source"/> and throws as the error mode says.</summary>
    /// <param name="source">The items.</param>
    /// <returns>A task that completes when every worker has stopped.</returns>
    public async Task ExecuteAsync(ItemSource<TSource> source)
    {
        try
        {
            if (source.Count is not 0 && !_stop.IsCancellationRequested)
            {
                StartFeatures(source.Count);
                source.Start(this, _stop.Token);
                _source = source;
                _workers = 1;
                _active = 1;
                _ = Task.Run(() => WorkAsync(0));
                await _stopped.Task.ConfigureAwait(false);
            }
        }
        finally
        {
            StopWorkers();
            await source.StopAsync().ConfigureAwait(false);
            _progress?.Finish();
            if (_circuitListener is not null)
            {
                foreach (var breaker in _pipeline.Breakers)
                {
                    breaker.Unsubscribe(_circuitListener);
                }
            }

            if (_ownsPipeline)
            {
                _pipeline.DisposeOwned();
            }

            _adaptive?.Dispose();
            _sink.Complete();
            _stop.Dispose();
        }

        _fatal?.Throw();
        _callerToken.ThrowIfCancellationRequested();
        if (_failures is { IsEmpty: false })
        {
            var failures = _failures.ToArray();
            Array.Sort(failures, static (a, b) => a.Index.CompareTo(b.Index));
            throw new ParallelAggregateException(failures);
        }
    }

    void IRunFeedback.OnSourceFault(Exception exception) => Fail(exception);

    void IRunFeedback.OnUnstarted(long index) => OnCancelled(index);

    void IRunFeedback.OnQueueDepthChanged(int delta) => _metrics?.Add(ParallelMeter.QueueDepth, delta);

    private void StartFeatures(long? count)
    {
        _pipeline = _options.PipelineForRun(out _ownsPipeline);
        foreach (var breaker in _pipeline.Breakers)
        {
            // Unsubscribed when the run ends, so a shared breaker does not keep reporting to finished runs.
            _circuitListener ??= OnCircuitStateChange;
            breaker.Subscribe(_circuitListener);
        }

        if (_options.AdaptiveConcurrency is { } adaptive)
        {
            _adaptive = new AdaptiveConcurrencyLimiter(adaptive, _workerLimit, limit => _metrics?.Record(ParallelMeter.ConcurrencyLimit, limit));
            _metrics?.Record(ParallelMeter.ConcurrencyLimit, _adaptive.Limit);
        }

        if (_options.Progress is { } progress)
        {
            _progress = new ProgressReporter(progress, _time, count, OnHookError);
            _progress.Start();
        }
    }

    /// <summary>One worker's loop.</summary>
    /// <param name="worker">The worker's number, from 0 up to the worker limit: the sink keeps each worker's results apart.</param>
    private async Task WorkAsync(int worker)
    {
        var source = _source!;
        var token = _stop.Token;
        try
        {
            while (!token.IsCancellationRequested)
            {
                await _sink.WaitForRoomAsync(token).ConfigureAwait(false);
                if (_adaptive is not null)
                {
                    await WaitForAdaptivePermitAsync(token).ConfigureAwait(false);
                }

                SourceItem<TSource> next;
                try
                {
                    next = await source.TakeAsync(token).ConfigureAwait(false);
                }
                catch
                {
                    ReturnPermits();
                    throw;
                }

                if (!next.HasItem)
                {
                    ReturnPermits();
                    return;
                }

                if (token.IsCancellationRequested)
                {
                    // The run stopped while this item was being taken: it ends as a cancellation, never started.
                    _adaptive?.Return();
                    OnCancelled(next.Index);
                    _sink.Skip(next.Index);
                    return;
                }

                SpawnWorker();
                var timed = _adaptive is not null || _hooks?.OnComplete is not null || (_metrics is not null && RunMetrics.DurationEnabled);
                var startedAt = timed ? _time.GetTimestamp() : 0;
                OnStarted(next.Index);
                var outcome = await _pipeline.RunAsync(_body, next.Item, next.Index, this, token).ConfigureAwait(false);
                if (outcome.Kind == OutcomeKind.Failure && _fallback is not null)
                {
                    outcome = Fallback(outcome, next.Item);
                }

                Finish(worker, outcome, next.Item, timed ? _time.GetTimestamp() - startedAt : 0);
            }
        }
        catch (OperationCanceledException) when (token.IsCancellationRequested)
        {
            // The run is stopping; every item this worker took has already ended.
        }
#pragma warning disable CA1031 // A throwing source ends the run with its exception, whatever it is.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            Fail(exception);
        }
        finally
        {
            if (Interlocked.Decrement(ref _active) == 0)
            {
                _stopped.TrySetResult();
            }
        }
    }

    /// <summary>
    /// Starts one more worker, up to the limit, each time a worker takes an item: a run has at most one worker more
    /// than it has items, so its cost follows the items, not <see cref="ParallelOperatorOptions.MaxDegreeOfParallelism"/>.
    /// </summary>
    private void SpawnWorker()
    {
        // Once every worker runs, which is most of a long run, this is one plain read.
        int workers;
        while ((workers = Volatile.Read(ref _workers)) < _workerLimit)
        {
            if (Interlocked.CompareExchange(ref _workers, workers + 1, workers) == workers)
            {
                // Counted before it starts, while this worker is still active, so the count cannot reach zero in between.
                Interlocked.Increment(ref _active);
                var number = workers;
                _ = Task.Run(() => WorkAsync(number));
                return;
            }
        }
    }

    private ItemOutcome<TResult> Fallback(in ItemOutcome<TResult> failure, TSource item)
    {
        var error = failure.Exception!;
        return _fallback!.TryHandle(item, ref error, out var value)
            ? ItemOutcome<TResult>.Success(failure.Index, value)
            : ItemOutcome<TResult>.Failure(failure.Index, error);
    }

    private async ValueTask WaitForAdaptivePermitAsync(CancellationToken token)
    {
        try
        {
            await _adaptive!.WaitAsync(token).ConfigureAwait(false);
        }
        catch
        {
            _sink.ReturnRoom();
            throw;
        }
    }

    private void ReturnPermits()
    {
        _adaptive?.Return();
        _sink.ReturnRoom();
    }

    /// <summary>Ends the run with <paramref name="exception"/>, unless it has already failed.</summary>
    private void Fail(Exception exception)
    {
        if (Interlocked.CompareExchange(ref _fatal, ExceptionDispatchInfo.Capture(exception), null) is null)
        {
            StopWorkers();
        }
    }

    private void StopWorkers()
    {
        try
        {
            _stop.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The run has already ended; a late Cancel from a stream's consumer has nothing left to stop.
        }
    }
}

using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Threading.RateLimiting;
using Millrace.Parallel.Adaptive;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Metrics;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Execution;

/// <summary>
/// One run of an operator: long-lived workers, started one per item taken up to the limit, that each take an item, run it through the
/// enabled features (rate limit, circuit breaker, timeout, retries, fallback), and hand its outcome to the
/// sink. A feature that is off is a null field and costs a null check; the per-item core uses a pooling
/// async builder, so an item that completes asynchronously allocates nothing of its own.
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Reliability", "CA1001:Types that own disposable fields should be disposable", Justification = "ExecuteAsync, which every run calls exactly once, disposes them in its finally block.")]
internal sealed class ParallelRun<TSource, TResult> : IRunFeedback
{
    private readonly ParallelOperatorOptions _options;
    private readonly Func<TSource, CancellationToken, ValueTask<TResult>> _body;
    private readonly Func<TSource, Exception, TResult>? _fallback;
    private readonly ResultSink<TResult> _sink;
    private readonly bool _deliverFailures;
    private readonly CancellationToken _callerToken;
    private readonly CancellationTokenSource _stop;
    private readonly TimeProvider _time;
    private readonly ParallelHooks? _hooks;
    private readonly RetryOptions? _retry;
    private readonly bool _metrics;
    private readonly KeyValuePair<string, object?> _tag;
    private readonly TaskCompletionSource _stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private CircuitController? _circuit;
    private RateLimitGate? _rateLimit;
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
        _body = body;
        _fallback = fallback;
        _sink = sink;
        _deliverFailures = deliverFailures;
        _callerToken = cancellationToken;
        _stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _time = options.TimeProvider;
        _hooks = options.Hooks;
        _retry = options.Retry is { MaxRetries: > 0 } retry ? retry : null;
        _metrics = options.Metrics;
        _tag = new KeyValuePair<string, object?>(ParallelInstruments.OperationTag, options.OperationName ?? ParallelInstruments.UnnamedOperation);
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
                _ = Task.Run(WorkAsync);
                await _stopped.Task.ConfigureAwait(false);
            }
        }
        finally
        {
            StopWorkers();
            await source.StopAsync().ConfigureAwait(false);
            _progress?.Finish();
            _rateLimit?.Dispose();
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

    void IRunFeedback.OnQueueDepthChanged(int delta) => Record(ParallelMeter.QueueDepth, delta);

    private void StartFeatures(long? count)
    {
        if (_options.CircuitBreaker is { } breaker)
        {
            _circuit = new CircuitController(breaker, _time, OnCircuitStateChange);
        }

        if (_options.RateLimit is { } rateLimit)
        {
            _rateLimit = new RateLimitGate(rateLimit, _time);
        }

        if (_options.AdaptiveConcurrency is { } adaptive)
        {
            _adaptive = new AdaptiveConcurrencyLimiter(adaptive, _options.WorkerLimit, limit => Gauge(ParallelMeter.ConcurrencyLimit, limit));
            Gauge(ParallelMeter.ConcurrencyLimit, _adaptive.Limit);
        }

        if (_options.Progress is { } progress)
        {
            _progress = new ProgressReporter(progress, _time, count, OnHookError);
            _progress.Start();
        }
    }

    private async Task WorkAsync()
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
                var timed = _adaptive is not null || _hooks?.OnComplete is not null || (_metrics && ParallelMeter.Duration.Enabled);
                var startedAt = timed ? _time.GetTimestamp() : 0;
                OnStarted(next.Index);
                var outcome = await ProcessAsync(next.Item, next.Index, token).ConfigureAwait(false);
                Finish(outcome, timed ? _time.GetTimestamp() - startedAt : 0);
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
        int workers;
        while ((workers = Volatile.Read(ref _workers)) < _options.WorkerLimit)
        {
            if (Interlocked.CompareExchange(ref _workers, workers + 1, workers) == workers)
            {
                // Counted before it starts, while this worker is still active, so the count cannot reach zero in between.
                Interlocked.Increment(ref _active);
                _ = Task.Run(WorkAsync);
                return;
            }
        }
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

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ItemOutcome<TResult>> ProcessAsync(TSource item, long index, CancellationToken token)
    {
        var retries = 0;
        var previousDelay = TimeSpan.Zero;
        while (true)
        {
            Exception error;
            RateLimitLease? lease = null;
            if (_rateLimit is not null)
            {
                try
                {
                    lease = await _rateLimit.AcquireAsync(token).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (token.IsCancellationRequested)
                {
                    return ItemOutcome<TResult>.Cancelled(index);
                }
            }

            // The lease is held for the whole attempt, as Polly's rate-limiter strategy holds it, so a caller's
            // ConcurrencyLimiter bounds the bodies running; it is released before a backoff delay.
            var isProbe = false;
            if (lease is { IsAcquired: false })
            {
                lease.Dispose();
                error = new RateLimitRejectedException();
            }
            else if (_circuit is not null && !_circuit.TryEnter(out isProbe, out var retryAfter))
            {
                lease?.Dispose();
                error = new CircuitOpenException(retryAfter);
            }
            else
            {
                try
                {
                    var value = _options.PerItemTimeout is { } timeout
                        ? await InvokeWithTimeoutAsync(item, index, timeout, token).ConfigureAwait(false)
                        : await _body(item, token).ConfigureAwait(false);
                    _circuit?.OnSuccess(isProbe);
                    return ItemOutcome<TResult>.Success(index, value);
                }
#pragma warning disable CA1031 // The item's exception is its outcome; the error mode decides whether it is thrown.
                catch (Exception exception)
#pragma warning restore CA1031
                {
                    error = exception;
                }
                finally
                {
                    lease?.Dispose();
                }

                _circuit?.OnFailure(isProbe, error);
                if (error is OperationCanceledException && token.IsCancellationRequested)
                {
                    return ItemOutcome<TResult>.Cancelled(index);
                }
            }

            if (_retry is not null && retries < _retry.MaxRetries && _retry.ShouldRetry(error))
            {
                var delay = BackoffCalculator.NextDelay(_retry, retries, ref previousDelay);
                retries++;
                OnRetry(new RetryArguments(index, retries, delay, error));
                if (delay > TimeSpan.Zero)
                {
                    try
                    {
                        await Task.Delay(delay, _time, token).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException) when (token.IsCancellationRequested)
                    {
                        return ItemOutcome<TResult>.Cancelled(index);
                    }
                }

                continue;
            }

            if (_fallback is not null)
            {
                try
                {
                    return ItemOutcome<TResult>.Success(index, _fallback(item, error));
                }
#pragma warning disable CA1031 // A throwing fallback makes the item fail with the fallback's exception.
                catch (Exception fallbackError)
#pragma warning restore CA1031
                {
                    error = fallbackError;
                }
            }

            return ItemOutcome<TResult>.Failure(index, error);
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<TResult> InvokeWithTimeoutAsync(TSource item, long index, TimeSpan timeout, CancellationToken token)
    {
        using var deadline = new CancellationTokenSource(timeout, _time);
        using var link = token.UnsafeRegister(static state => ((CancellationTokenSource)state!).Cancel(), deadline);
        try
        {
            return await _body(item, deadline.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException exception) when (deadline.IsCancellationRequested && !token.IsCancellationRequested)
        {
            throw new TimeoutException($"Item {index} did not finish within {timeout}.", exception);
        }
    }

    private void OnStarted(long index)
    {
        Record(ParallelMeter.Started, 1);
        Record(ParallelMeter.InFlight, 1);
        _progress?.OnStarted();
        Invoke(_hooks?.OnStart, index);
    }

    private void Finish(in ItemOutcome<TResult> outcome, long elapsedTicks)
    {
        _adaptive?.Complete(elapsedTicks, outcome.Kind == OutcomeKind.Failure);
        Record(ParallelMeter.InFlight, -1);
        switch (outcome.Kind)
        {
            case OutcomeKind.Success:
                Record(ParallelMeter.Completed, 1);
                if (elapsedTicks != 0 && _metrics && ParallelMeter.Duration.Enabled)
                {
                    ParallelMeter.Duration.Record(elapsedTicks / (double)_time.TimestampFrequency, _tag);
                }

                _progress?.OnCompleted();
                Invoke(_hooks?.OnComplete, new ItemCompleted(outcome.Index, TimeSpan.FromSeconds(elapsedTicks / (double)_time.TimestampFrequency)));
                _sink.Accept(outcome);
                break;
            case OutcomeKind.Failure:
                OnFailed(outcome);
                break;
            default:
                OnCancelled(outcome.Index);
                _sink.Skip(outcome.Index);
                break;
        }
    }

    private void OnFailed(in ItemOutcome<TResult> outcome)
    {
        Record(ParallelMeter.Failed, 1);
        _progress?.OnFailed();
        if (_deliverFailures)
        {
            Invoke(_hooks?.OnError, new ItemFailed(outcome.Index, outcome.Exception!));
            _sink.Accept(outcome);
            return;
        }

        // The mode acts before the hook runs, so a fail-fast run has stopped taking items by the time anyone hears of the failure.
        if (_options.ErrorMode == ErrorMode.FailFast)
        {
            // Not skipped: an ordered stream must not move past the failed item and deliver later results.
            Fail(outcome.Exception!);
            Invoke(_hooks?.OnError, new ItemFailed(outcome.Index, outcome.Exception!));
            return;
        }

        if (_options.ErrorMode == ErrorMode.CollectAndContinue)
        {
            LazyInitializer.EnsureInitialized(ref _failures).Enqueue(new ParallelItemFailure(outcome.Index, outcome.Exception!));
        }

        Invoke(_hooks?.OnError, new ItemFailed(outcome.Index, outcome.Exception!));
        _sink.Skip(outcome.Index);
    }

    private void OnCancelled(long index)
    {
        Record(ParallelMeter.Cancelled, 1);
        Invoke(_hooks?.OnCancel, index);
    }

    private void OnRetry(RetryArguments arguments)
    {
        Record(ParallelMeter.Retried, 1);
        _progress?.OnRetry();
        Invoke(_hooks?.OnRetry, arguments);
    }

    private void OnCircuitStateChange(CircuitStateChange change)
    {
        Gauge(ParallelMeter.CircuitState, (int)change.To);
        Invoke(_hooks?.OnCircuitStateChange, change);
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

    private void Invoke<T>(Action<T>? hook, T argument)
    {
        if (hook is null)
        {
            return;
        }

        try
        {
            hook(argument);
        }
#pragma warning disable CA1031 // Hook exceptions are the run's to ignore or propagate, never the worker's.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            OnHookError(exception);
        }
    }

    private void OnHookError(Exception exception)
    {
        if (_hooks?.PropagateExceptions == true)
        {
            Fail(exception);
            return;
        }

        Record(ParallelMeter.HookErrors, 1);
    }

    private void Record(Counter<long> counter, long value)
    {
        if (_metrics && counter.Enabled)
        {
            counter.Add(value, _tag);
        }
    }

    private void Record(UpDownCounter<long> counter, long value)
    {
        if (_metrics && counter.Enabled)
        {
            counter.Add(value, _tag);
        }
    }

    private void Gauge(Gauge<int> gauge, int value)
    {
        if (_metrics && gauge.Enabled)
        {
            gauge.Record(value, _tag);
        }
    }
}

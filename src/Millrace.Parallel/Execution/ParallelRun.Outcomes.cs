using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Metrics;
using Millrace.Parallel.Resilience;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Execution;

/// <content>How items end: the sink, the error mode, progress, metrics and hooks hear of each item here.</content>
internal sealed partial class ParallelRun<TSource, TResult>
{
    private void OnStarted(long index)
    {
        _metrics?.Add(ParallelMeter.Started, 1);
        _metrics?.Add(ParallelMeter.InFlight, 1);
        _progress?.OnStarted();
        Invoke(_hooks?.OnStart, index);
    }

    private void Finish(int worker, in ItemOutcome<TResult> outcome, TSource item, long elapsedTicks)
    {
        _adaptive?.Complete(elapsedTicks, outcome.Kind == OutcomeKind.Failure);
        _metrics?.Add(ParallelMeter.InFlight, -1);
        switch (outcome.Kind)
        {
            case OutcomeKind.Success:
                _metrics?.Add(ParallelMeter.Completed, 1);
                _metrics?.RecordDuration(elapsedTicks, _time.TimestampFrequency);

                _progress?.OnCompleted();
                if (_hooks?.OnComplete is { } onComplete)
                {
                    // Built only for a listener: the duration's conversion is not free on a path that runs per item.
                    Invoke(onComplete, new ItemCompleted(outcome.Index, TimeSpan.FromSeconds(elapsedTicks / (double)_time.TimestampFrequency)));
                }
                _sink.Accept(worker, outcome);
                break;
            case OutcomeKind.Failure:
                OnFailed(worker, outcome, item);
                break;
            default:
                OnCancelled(outcome.Index);
                _sink.Skip(outcome.Index);
                break;
        }
    }

    private void OnFailed(int worker, in ItemOutcome<TResult> outcome, TSource item)
    {
        _metrics?.Add(ParallelMeter.Failed, 1);
        _progress?.OnFailed();

        // A batch is reported by the source index of its first item, not by its batch number, which the sink keeps for
        // ordering. The type test is on the failure path only, and folded away for value-type items.
        var reported = !typeof(TSource).IsValueType && item is IIndexedBatch batch ? batch.FirstIndex : outcome.Index;
        if (_deliverFailures)
        {
            Invoke(_hooks?.OnError, new ItemFailed(reported, outcome.Exception!));
            _sink.Accept(worker, outcome);
            return;
        }

        // The mode acts before the hook runs, so a fail-fast run has stopped taking items by the time anyone hears of the failure.
        if (_options.ErrorMode == ErrorMode.FailFast)
        {
            // Not skipped: an ordered stream must not move past the failed item and deliver later results.
            Fail(outcome.Exception!);
            Invoke(_hooks?.OnError, new ItemFailed(reported, outcome.Exception!));
            return;
        }

        if (_options.ErrorMode == ErrorMode.CollectAndContinue)
        {
            LazyInitializer.EnsureInitialized(ref _failures).Enqueue(new ParallelItemFailure(reported, outcome.Exception!));
        }

        Invoke(_hooks?.OnError, new ItemFailed(reported, outcome.Exception!));
        _sink.Skip(outcome.Index);
    }

    private void OnCancelled(long index)
    {
        _metrics?.Add(ParallelMeter.Cancelled, 1);
        Invoke(_hooks?.OnCancel, index);
    }

    void IRetryObserver.OnRetry(in RetryArguments arguments)
    {
        _metrics?.Add(ParallelMeter.Retried, 1);
        _progress?.OnRetry();
        Invoke(_hooks?.OnRetry, arguments);
    }

    private void OnCircuitStateChange(CircuitStateChange change)
    {
        _metrics?.Record(ParallelMeter.CircuitState, (int)change.To);
        Invoke(_hooks?.OnCircuitStateChange, change);
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

        _metrics?.Add(ParallelMeter.HookErrors, 1);
    }
}

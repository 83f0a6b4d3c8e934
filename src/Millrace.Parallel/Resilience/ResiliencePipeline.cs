using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Execution;
using Millrace.Parallel.Retry;
using Millrace.Parallel.Timeouts;

namespace Millrace.Parallel.Resilience;

/// <summary>
/// An ordered composition of resilience strategies that one call, or each item of a parallel run, passes through:
/// outermost the retry, which runs everything below again after a failed attempt (with backoff); then the gates, in the
/// order they were added (rate limiters, concurrency limiters, circuit breakers), which every attempt passes and whose
/// waits never count against its timeout; then the attempt's timeout; then the callback. Built by
/// <see cref="ResiliencePipelineBuilder"/>, as Polly v8's <c>ResiliencePipeline</c> is, and, like it, thread-safe and meant
/// to be shared: a breaker or limiter it holds is shared by everything that runs through it. Unlike Polly's, the
/// strategies are not nested callbacks but steps of one pooled async method: an attempt that passes up to four gates
/// without waiting allocates nothing for them (a wait, a hold or a timeout allocates what it waits on). Set it as <see cref="ParallelOperatorOptions.Pipeline"/> for a run's items, or call
/// <see cref="ExecuteAsync{TState, TResult}"/> for a single call.
/// </summary>
public sealed class ResiliencePipeline
{
    private readonly RetryStrategy? _retry;
    private readonly AttemptGate[] _gates;
    private readonly TimeoutStrategy? _timeout;

    internal ResiliencePipeline(RetryStrategy? retry, AttemptGate[] gates, TimeoutStrategy? timeout)
    {
        _retry = retry;
        _gates = gates;
        _timeout = timeout;
    }

    /// <summary>Gets a pipeline with no strategies: the callback runs once, as it is.</summary>
    public static ResiliencePipeline Empty { get; } = new(null, [], null);

    /// <summary>Gets the breakers among the gates, so a run can listen to their state changes.</summary>
    internal IEnumerable<CircuitController> Breakers => _gates.OfType<CircuitBreakerGate>().Select(static g => g.Breaker);

    /// <summary>Runs <paramref name="callback"/> through the pipeline.</summary>
    /// <typeparam name="TState">The state passed to the callback, so it need capture nothing.</typeparam>
    /// <typeparam name="TResult">The callback's result.</typeparam>
    /// <param name="callback">The work; its token is cancelled when the attempt times out or <paramref name="cancellationToken"/> is.</param>
    /// <param name="state">The callback's state.</param>
    /// <param name="cancellationToken">Cancels the call, its waits and its retries.</param>
    /// <returns>The callback's result, from the first attempt that succeeded.</returns>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    /// <exception cref="Exception">The last attempt's exception, when the retries are exhausted or the failure is not retried; a
    /// refused gate's (<see cref="CircuitOpenException"/>, <see cref="RateLimit.RateLimitRejectedException"/>) or a timeout's
    /// (<see cref="TimeoutException"/>) included.</exception>
    public async ValueTask<TResult> ExecuteAsync<TState, TResult>(Func<TState, CancellationToken, ValueTask<TResult>> callback, TState state, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(callback);
        var outcome = await RunAsync(callback, state, -1, null, cancellationToken).ConfigureAwait(false);
        if (outcome.Kind == OutcomeKind.Failure)
        {
            ExceptionDispatchInfo.Throw(outcome.Exception!);
        }

        if (outcome.Kind == OutcomeKind.Cancelled)
        {
            throw new OperationCanceledException(cancellationToken);
        }

        return outcome.Value;
    }

    /// <summary>Runs <paramref name="callback"/> through the pipeline.</summary>
    /// <typeparam name="TResult">The callback's result.</typeparam>
    /// <param name="callback">The work; its token is cancelled when the attempt times out or <paramref name="cancellationToken"/> is.</param>
    /// <param name="cancellationToken">Cancels the call, its waits and its retries.</param>
    /// <returns>The callback's result, from the first attempt that succeeded.</returns>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public ValueTask<TResult> ExecuteAsync<TResult>(Func<CancellationToken, ValueTask<TResult>> callback, CancellationToken cancellationToken) =>
        ExecuteAsync(static (call, token) => call(token), callback, cancellationToken);

    /// <summary>Runs <paramref name="callback"/> through the pipeline.</summary>
    /// <param name="callback">The work; its token is cancelled when the attempt times out or <paramref name="cancellationToken"/> is.</param>
    /// <param name="cancellationToken">Cancels the call, its waits and its retries.</param>
    /// <returns>A task that completes when an attempt succeeded.</returns>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public async ValueTask ExecuteAsync(Func<CancellationToken, ValueTask> callback, CancellationToken cancellationToken) =>
        await ExecuteAsync(
            static async (call, token) =>
            {
                await call(token).ConfigureAwait(false);
                return true;
            },
            callback,
            cancellationToken).ConfigureAwait(false);

    /// <summary>Disposes the limiters the pipeline made for a run (a token bucket), not those it was given.</summary>
    internal void DisposeOwned()
    {
        foreach (var gate in _gates)
        {
            (gate as IDisposable)?.Dispose();
        }
    }

    /// <summary>
    /// Runs one item through the pipeline, in the order the class documents, and says how it ended without throwing: a
    /// failure is the last attempt's exception, a cancellation of <paramref name="token"/> a cancelled outcome.
    /// </summary>
    /// <param name="body">The work.</param>
    /// <param name="item">Its item.</param>
    /// <param name="index">The item's index in its run, for its outcome and its retries' reports; -1 for a single call.</param>
    /// <param name="observer">Hears of each retry, if given.</param>
    /// <param name="token">The run's or the caller's token.</param>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    internal async ValueTask<ItemOutcome<TResult>> RunAsync<TSource, TResult>(
        Func<TSource, CancellationToken, ValueTask<TResult>> body, TSource item, long index, IRetryObserver? observer, CancellationToken token)
    {
        var gates = _gates;
        var passes = default(GatePasses);
        var retries = 0;
        var previousDelay = TimeSpan.Zero;
        while (true)
        {
            Exception? error = null;
            var entered = 0;
            try
            {
                for (; entered < gates.Length; entered++)
                {
                    var pass = await gates[entered].EnterAsync(token).ConfigureAwait(false);
                    if (pass.Refusal is not null)
                    {
                        error = pass.Refusal;
                        break;
                    }

                    passes.Set(entered, gates.Length, pass);
                }
            }
#pragma warning disable CA1031 // A gate that throws fails the attempt as a refusal does; the retry decides.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                // A limiter backed by another machine whose call failed, one disposed under the run, a cancelled wait.
                error = exception;
            }

            TResult value = default!;
            if (error is not null)
            {
                // Refused: the attempt never ran, and the gates it passed give back what they handed it.
                Release(gates, passes, entered, ran: false, failure: null);
            }
            else
            {
                try
                {
                    value = _timeout is not null
                        ? await _timeout.ExecuteAsync(body, item, token).ConfigureAwait(false)
                        : await body(item, token).ConfigureAwait(false);
                }
#pragma warning disable CA1031 // The item's exception is its outcome; the caller decides whether it is thrown.
                catch (Exception exception)
#pragma warning restore CA1031
                {
                    error = exception;
                }

                // A failure while the caller cancels says nothing of the service: the gates hear that the attempt did not run.
                Release(gates, passes, gates.Length, ran: error is null || !token.IsCancellationRequested, error);
            }

            if (error is null)
            {
                return ItemOutcome<TResult>.Success(index, value);
            }

            if (error is OperationCanceledException && token.IsCancellationRequested)
            {
                return ItemOutcome<TResult>.Cancelled(index);
            }

            if (_retry is null || !_retry.ShouldRetry(retries, error, ref previousDelay, out var delay))
            {
                return ItemOutcome<TResult>.Failure(index, error);
            }

            retries++;
            observer?.OnRetry(new RetryArguments(index, retries, delay, error));
            try
            {
                await _retry.DelayAsync(delay, token).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (token.IsCancellationRequested)
            {
                return ItemOutcome<TResult>.Cancelled(index);
            }
        }
    }

    /// <summary>
    /// Gives the first <paramref name="count"/> gates' passes back, innermost first as nested strategies would unwind (a
    /// concurrency slot is free before the breaker hears), every one of them even when one throws (a breaker's
    /// <c>ShouldHandle</c> or a listener of its state); the first exception is thrown after.
    /// </summary>
    private static void Release(AttemptGate[] gates, in GatePasses passes, int count, bool ran, Exception? failure)
    {
        Exception? first = null;
        for (var i = count - 1; i >= 0; i--)
        {
            try
            {
                gates[i].Exit(passes[i], ran, failure);
            }
#pragma warning disable CA1031 // Rethrown below, once every gate has its pass back.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                first ??= exception;
            }
        }

        if (first is not null)
        {
            ExceptionDispatchInfo.Throw(first);
        }
    }
}

/// <summary>Hears of the retries a pipeline makes for a run's items (progress, metrics, hooks).</summary>
internal interface IRetryObserver
{
    /// <summary>An item's attempt failed and it is about to be tried again.</summary>
    /// <param name="arguments">Which item, which retry, after which delay and why.</param>
    void OnRetry(in RetryArguments arguments);
}

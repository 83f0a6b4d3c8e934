using System.Runtime.CompilerServices;
using System.Threading.RateLimiting;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Execution;

/// <content>The pipeline: one item through the feature strategies, in the order the class documents.</content>
internal sealed partial class ParallelRun<TSource, TResult>
{
    /// <summary>Runs one item through the pipeline, in the order the class documents: fallback, retry, and per attempt rate limit, breaker, timeout, body.</summary>
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
                    var value = _timeout is not null
                        ? await _timeout.ExecuteAsync(_body, item, index, token).ConfigureAwait(false)
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

            if (_retry is not null && _retry.ShouldRetry(retries, error, ref previousDelay, out var delay))
            {
                retries++;
                OnRetry(new RetryArguments(index, retries, delay, error));
                try
                {
                    await _retry.DelayAsync(delay, token).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (token.IsCancellationRequested)
                {
                    return ItemOutcome<TResult>.Cancelled(index);
                }

                continue;
            }

            if (_fallback is not null && _fallback.TryHandle(item, ref error, out var fallbackValue))
            {
                return ItemOutcome<TResult>.Success(index, fallbackValue);
            }

            return ItemOutcome<TResult>.Failure(index, error);
        }
    }
}

using System.Runtime.CompilerServices;

namespace Millrace.Parallel.Timeouts;

/// <summary>
/// The timeout step of the pipeline: bounds one attempt, inside the retry loop and the gates, so every retry gets a
/// fresh <see cref="ParallelOperatorOptions.PerAttemptTimeout"/> and no gate's wait counts against it. The attempt's token is cancelled at the deadline and
/// the attempt fails with a <see cref="TimeoutException"/>; the caller's own cancellation stays a cancellation.
/// </summary>
internal sealed class TimeoutStrategy(TimeSpan timeout, TimeProvider time)
{
    /// <summary>Runs one attempt of <paramref name="body"/> on <paramref name="item"/> within the timeout.</summary>
    /// <typeparam name="TSource">The item type, passed as state so the call captures nothing.</typeparam>
    /// <typeparam name="TResult">The result type.</typeparam>
    /// <param name="body">The work.</param>
    /// <param name="item">The item.</param>
    /// <param name="token">The run's token.</param>
    /// <returns>The body's result.</returns>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<TResult> ExecuteAsync<TSource, TResult>(Func<TSource, CancellationToken, ValueTask<TResult>> body, TSource item, CancellationToken token)
    {
        using var deadline = new CancellationTokenSource(timeout, time);
        using var link = token.UnsafeRegister(static state => ((CancellationTokenSource)state!).Cancel(), deadline);
        try
        {
            return await body(item, deadline.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException exception) when (deadline.IsCancellationRequested && !token.IsCancellationRequested)
        {
            // No index in the words: the failure is reported with its item already, and inside a cluster's lease a run's
            // index is the item's place in the lease, not in the job.
            throw new TimeoutException($"The attempt did not finish within {timeout}.", exception);
        }
    }
}

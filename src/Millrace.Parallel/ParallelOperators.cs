using System.Runtime.CompilerServices;
using Millrace.Parallel.Execution;

namespace Millrace.Parallel;

/// <summary>
/// Bounded-concurrency async operators over <see cref="IEnumerable{T}"/> and <see cref="IAsyncEnumerable{T}"/>.
/// Every operator validates its options, runs at most <see cref="ParallelOperatorOptions.MaxDegreeOfParallelism"/>
/// items at once (or the adaptive limit), never reads a source further ahead than its input buffer, and ends every
/// item exactly once: as a result, a failure or a cancellation.
/// </summary>
public static partial class ParallelOperators
{
    /// <summary>Checks the work delegate and the options when the operator is called, not when its task is awaited or its stream enumerated.</summary>
    private static ParallelOperatorOptions Prepare(Delegate work, ParallelOperatorOptions? options, [CallerArgumentExpression(nameof(work))] string? workName = null)
    {
        ArgumentNullException.ThrowIfNull(work, workName);
        options ??= ParallelOperatorOptions.Default;
        options.EnsureValid();
        return options;
    }

    private static EnumerableItemSource<T> ItemsOf<T>(IEnumerable<T> source)
    {
        ArgumentNullException.ThrowIfNull(source);
        return new EnumerableItemSource<T>(source);
    }

    private static AsyncEnumerableItemSource<T> ItemsOf<T>(IAsyncEnumerable<T> source, ParallelOperatorOptions options)
    {
        ArgumentNullException.ThrowIfNull(source);
        return new AsyncEnumerableItemSource<T>(source, options.EffectiveInputBufferSize);
    }

    private static ParallelRun<TSource, TResult> Run<TSource, TResult>(
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        Func<TSource, Exception, TResult>? fallback,
        ResultSink<TResult> sink,
        ParallelOperatorOptions options,
        bool deliverFailures,
        CancellationToken cancellationToken)
    {
        return new ParallelRun<TSource, TResult>(options, selector, fallback, sink, deliverFailures, cancellationToken);
    }

    private static async Task<CollectingSink<TResult>> CollectAsync<TSource, TResult>(
        ItemSource<TSource> items,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        Func<TSource, Exception, TResult>? fallback,
        ParallelOperatorOptions options,
        bool deliverFailures,
        CancellationToken cancellationToken)
    {
        var sink = new CollectingSink<TResult>(items.Count, options.WorkerLimit, options.Ordered);
        await Run(selector, fallback, sink, options, deliverFailures, cancellationToken).ExecuteAsync(items).ConfigureAwait(false);
        return sink;
    }

    private static async IAsyncEnumerable<ItemOutcome<TResult>> StreamAsync<TSource, TResult>(
        ItemSource<TSource> items,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        Func<TSource, Exception, TResult>? fallback,
        ParallelOperatorOptions options,
        bool deliverFailures,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var sink = new StreamingSink<TResult>(options.EffectiveOrderingWindow, options.Ordered);
        var run = Run(selector, fallback, sink, options, deliverFailures, cancellationToken);
        var execution = run.ExecuteAsync(items);
        var drained = false;
        try
        {
            // No token on the wait: a cancelled run completes the channel itself, and the loop then ends.
            var reader = sink.Reader;
            while (await reader.WaitToReadAsync(CancellationToken.None).ConfigureAwait(false))
            {
                while (reader.TryRead(out var outcome))
                {
                    sink.OnConsumed();
                    yield return outcome;
                }
            }

            drained = true;
        }
        finally
        {
            if (!drained)
            {
                run.Cancel();
                await execution.ContinueWith(static _ => { }, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default).ConfigureAwait(false);
            }
        }

        await execution.ConfigureAwait(false);
    }
}

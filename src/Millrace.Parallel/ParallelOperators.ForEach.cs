using Millrace.Parallel.Execution;

namespace Millrace.Parallel;

public static partial class ParallelOperators
{
    /// <summary>Runs <paramref name="body"/> for every item, up to the options' limit at once.</summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <param name="source">The items. Enumerated by the workers, one item at a time, never ahead.</param>
    /// <param name="body">The work for one item; it receives a token that is cancelled when the run stops or the item times out.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>A task that completes when every item has ended.</returns>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    /// <exception cref="ParallelAggregateException">Items failed under <see cref="ErrorMode.CollectAndContinue"/>.</exception>
    public static Task ForEachParallelAsync<TSource>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask> body,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(body, options);
        return ForEachCoreAsync(ItemsOf(source), body, options, cancellationToken);
    }

    /// <inheritdoc cref="ForEachParallelAsync{TSource}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task ForEachParallelAsync<TSource>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask> body,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(body, options);
        return ForEachCoreAsync(ItemsOf(source, options), body, options, cancellationToken);
    }

    private static Task ForEachCoreAsync<TSource>(
        ItemSource<TSource> items,
        Func<TSource, CancellationToken, ValueTask> body,
        ParallelOperatorOptions options,
        CancellationToken cancellationToken)
    {
        var run = new ParallelRun<TSource, bool>(options, new VoidBody<TSource>(body).InvokeAsync, null, DiscardingSink<bool>.Instance, deliverFailures: false, cancellationToken);
        return run.ExecuteAsync(items);
    }

    /// <summary>Adapts a body without a result to the run's selector shape without allocating per item.</summary>
    private sealed class VoidBody<TSource>(Func<TSource, CancellationToken, ValueTask> body)
    {
        public ValueTask<bool> InvokeAsync(TSource item, CancellationToken cancellationToken)
        {
            var pending = body(item, cancellationToken);
            return pending.IsCompletedSuccessfully ? new ValueTask<bool>(true) : AwaitAsync(pending);
        }

        [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
        private static async ValueTask<bool> AwaitAsync(ValueTask pending)
        {
            await pending.ConfigureAwait(false);
            return true;
        }
    }
}

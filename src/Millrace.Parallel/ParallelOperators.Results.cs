using Millrace.Parallel.Execution;

namespace Millrace.Parallel;

public static partial class ParallelOperators
{
    /// <summary>
    /// Projects every item and returns each item's outcome, success or failure, instead of throwing for failed items:
    /// the error mode does not apply. Cancellation still throws <see cref="OperationCanceledException"/>.
    /// </summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="selector">The work for one item.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>One result per item, with its source index; in source order when <see cref="ParallelOperatorOptions.Ordered"/>.</returns>
    public static Task<ItemResult<TResult>[]> SelectParallelResultsAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return ResultsCoreAsync(ItemsOf(source), selector, options, cancellationToken);
    }

    /// <inheritdoc cref="SelectParallelResultsAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task<ItemResult<TResult>[]> SelectParallelResultsAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return ResultsCoreAsync(ItemsOf(source, options), selector, options, cancellationToken);
    }

    /// <summary>
    /// Projects every item and yields each item's outcome, success or failure, as soon as it may be seen: in completion
    /// order, or in source order when <see cref="ParallelOperatorOptions.Ordered"/>, within the ordering window.
    /// </summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="selector">The work for one item.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>One result per item, with its source index.</returns>
    public static IAsyncEnumerable<ItemResult<TResult>> SelectParallelResultsStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return ResultsOf(StreamAsync(ItemsOf(source), selector, null, options, deliverFailures: true, cancellationToken), CancellationToken.None);
    }

    /// <inheritdoc cref="SelectParallelResultsStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, ParallelOperatorOptions?, CancellationToken)"/>
    public static IAsyncEnumerable<ItemResult<TResult>> SelectParallelResultsStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return ResultsOf(StreamAsync(ItemsOf(source, options), selector, null, options, deliverFailures: true, cancellationToken), CancellationToken.None);
    }

    private static async Task<ItemResult<TResult>[]> ResultsCoreAsync<TSource, TResult>(
        Execution.ItemSource<TSource> items,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions options,
        CancellationToken cancellationToken)
    {
        var sink = await CollectAsync(items, selector, null, options, deliverFailures: true, cancellationToken).ConfigureAwait(false);
        return sink.ToItemResults();
    }

    private static async IAsyncEnumerable<ItemResult<TResult>> ResultsOf<TResult>(
        IAsyncEnumerable<ItemOutcome<TResult>> outcomes,
        [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await foreach (var outcome in outcomes.WithCancellation(cancellationToken).ConfigureAwait(false))
        {
            yield return outcome.ToItemResult();
        }
    }
}

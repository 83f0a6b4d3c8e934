using System.Runtime.CompilerServices;

namespace Millrace.Parallel;

public static partial class ParallelOperators
{
    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return SelectCoreAsync(ItemsOf(source), selector, null, options, cancellationToken);
    }

    /// <summary>Projects every item with <paramref name="selector"/>, running up to the options' limit at once.</summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type.</typeparam>
    /// <param name="source">The items. Enumerated by the workers, one item at a time, never ahead.</param>
    /// <param name="selector">The work for one item; it receives a token that is cancelled when the run stops or the item times out.</param>
    /// <param name="fallback">The value of an item whose attempts, retries and timeouts included, are exhausted; a throwing fallback fails the item.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run: no item starts after it, items in flight see it, and the operator throws <see cref="OperationCanceledException"/>.</param>
    /// <returns>The results: in source order when <see cref="ParallelOperatorOptions.Ordered"/>, else in completion order; failed items are missing only under <see cref="ErrorMode.BestEffort"/>.</returns>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    /// <exception cref="ParallelAggregateException">Items failed under <see cref="ErrorMode.CollectAndContinue"/>.</exception>
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        Func<TSource, Exception, TResult> fallback,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(fallback);
        options = Prepare(selector, options);
        return SelectCoreAsync(ItemsOf(source), selector, fallback, options, cancellationToken);
    }

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return SelectCoreAsync(ItemsOf(source, options), selector, null, options, cancellationToken);
    }

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        Func<TSource, Exception, TResult> fallback,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(fallback);
        options = Prepare(selector, options);
        return SelectCoreAsync(ItemsOf(source, options), selector, fallback, options, cancellationToken);
    }

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return ValuesOf(StreamAsync(ItemsOf(source), selector, null, options, deliverFailures: false, cancellationToken), CancellationToken.None);
    }

    /// <summary>
    /// Projects every item and yields each result as soon as it may be seen: in completion order, or in source order
    /// when <see cref="ParallelOperatorOptions.Ordered"/>, holding back at most <see cref="ParallelOperatorOptions.OrderingWindow"/>
    /// results. Stopping the enumeration early cancels and awaits the workers.
    /// </summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="selector">The work for one item.</param>
    /// <param name="fallback">The value of an item whose attempts, retries and timeouts included, are exhausted; a throwing fallback fails the item.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The results. Under <see cref="ErrorMode.FailFast"/> the enumeration throws the first failure after the results already delivered.</returns>
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        Func<TSource, Exception, TResult> fallback,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(fallback);
        options = Prepare(selector, options);
        return ValuesOf(StreamAsync(ItemsOf(source), selector, fallback, options, deliverFailures: false, cancellationToken), CancellationToken.None);
    }

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return ValuesOf(StreamAsync(ItemsOf(source, options), selector, null, options, deliverFailures: false, cancellationToken), CancellationToken.None);
    }

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        Func<TSource, Exception, TResult> fallback,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(fallback);
        options = Prepare(selector, options);
        return ValuesOf(StreamAsync(ItemsOf(source, options), selector, fallback, options, deliverFailures: false, cancellationToken), CancellationToken.None);
    }

    private static async Task<TResult[]> SelectCoreAsync<TSource, TResult>(
        Execution.ItemSource<TSource> items,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        Func<TSource, Exception, TResult>? fallback,
        ParallelOperatorOptions options,
        CancellationToken cancellationToken)
    {
        var sink = await CollectAsync(items, selector, fallback, options, deliverFailures: false, cancellationToken).ConfigureAwait(false);
        return sink.ToValues();
    }

    private static async IAsyncEnumerable<TResult> ValuesOf<TResult>(
        IAsyncEnumerable<Execution.ItemOutcome<TResult>> outcomes,
        [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        await foreach (var outcome in outcomes.WithCancellation(cancellationToken).ConfigureAwait(false))
        {
            yield return outcome.Value;
        }
    }
}

using Millrace.Parallel.Execution;

namespace Millrace.Parallel;

public static partial class ParallelOperators
{
    /// <summary>Groups the items into batches of <paramref name="batchSize"/> and runs <paramref name="selector"/> on each batch, up to the options' limit at once.</summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type of one batch.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="batchSize">The largest batch; the last may be smaller.</param>
    /// <param name="selector">The work for one batch. Options such as retries and timeouts apply per batch.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>One result per batch; in source order when <see cref="ParallelOperatorOptions.Ordered"/>.</returns>
    public static Task<TResult[]> BatchParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        options = Prepare(selector, options);
        return SelectCoreAsync(ItemsOf(source.Chunk(batchSize)), selector, null, options, cancellationToken);
    }

    /// <summary>
    /// Groups the items into batches of <paramref name="batchSize"/>, or fewer when <paramref name="maxWait"/> passes
    /// after a batch's first item, and runs <paramref name="selector"/> on each batch, up to the options' limit at once.
    /// </summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type of one batch.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="batchSize">The largest batch.</param>
    /// <param name="selector">The work for one batch.</param>
    /// <param name="maxWait">The longest a partial batch waits for more items from a slow source; <see langword="null"/> waits until the batch is full or the source ends.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>One result per batch; in source order when <see cref="ParallelOperatorOptions.Ordered"/>.</returns>
    public static Task<TResult[]> BatchParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        TimeSpan? maxWait = null,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return SelectCoreAsync(ItemsOf(Batches(source, batchSize, maxWait, options), options), selector, null, options, cancellationToken);
    }

    /// <summary>Like <see cref="BatchParallelAsync{TSource, TResult}(IEnumerable{TSource}, int, Func{IReadOnlyList{TSource}, CancellationToken, ValueTask{TResult}}, ParallelOperatorOptions?, CancellationToken)"/>, yielding each batch's result as soon as it may be seen.</summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type of one batch.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="batchSize">The largest batch.</param>
    /// <param name="selector">The work for one batch.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The batch results.</returns>
    public static IAsyncEnumerable<TResult> BatchParallelStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        options = Prepare(selector, options);
        return ValuesOf(StreamAsync(ItemsOf(source.Chunk(batchSize)), selector, null, options, deliverFailures: false, cancellationToken), CancellationToken.None);
    }

    /// <summary>Like <see cref="BatchParallelAsync{TSource, TResult}(IAsyncEnumerable{TSource}, int, Func{IReadOnlyList{TSource}, CancellationToken, ValueTask{TResult}}, TimeSpan?, ParallelOperatorOptions?, CancellationToken)"/>, yielding each batch's result as soon as it may be seen.</summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type of one batch.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="batchSize">The largest batch.</param>
    /// <param name="selector">The work for one batch.</param>
    /// <param name="maxWait">The longest a partial batch waits for more items from a slow source.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The batch results.</returns>
    public static IAsyncEnumerable<TResult> BatchParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        TimeSpan? maxWait = null,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        options = Prepare(selector, options);
        return ValuesOf(StreamAsync(ItemsOf(Batches(source, batchSize, maxWait, options), options), selector, null, options, deliverFailures: false, cancellationToken), CancellationToken.None);
    }

    private static IAsyncEnumerable<TSource[]> Batches<TSource>(IAsyncEnumerable<TSource> source, int batchSize, TimeSpan? maxWait, ParallelOperatorOptions options)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        if (maxWait is { } wait)
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(wait, TimeSpan.Zero, nameof(maxWait));
        }

        return AsyncBatcher.BatchAsync(source, batchSize, maxWait, options.TimeProvider, CancellationToken.None);
    }
}

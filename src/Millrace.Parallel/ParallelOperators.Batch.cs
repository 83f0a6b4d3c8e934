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
    /// <remarks>A failed batch is reported (<see cref="ItemFailed.Index"/>, <see cref="ParallelItemFailure.Index"/>) by the source index of its first item.</remarks>
    public static Task<TResult[]> BatchParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        var batches = Batches(source, batchSize);
        options = Prepare(selector, options);
        return SelectCoreAsync(ItemsOf(batches), selector, null, options, cancellationToken);
    }

    /// <summary>Groups the items into batches of <paramref name="batchSize"/> and runs <paramref name="selector"/> on each batch, up to the options' limit at once.</summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type of one batch.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="batchSize">The largest batch.</param>
    /// <param name="selector">The work for one batch.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>One result per batch; in source order when <see cref="ParallelOperatorOptions.Ordered"/>.</returns>
    /// <remarks>A failed batch is reported by the source index of its first item.</remarks>
    public static Task<TResult[]> BatchParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        return BatchCoreAsync(source, batchSize, selector, null, options, cancellationToken);
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
    /// <param name="maxWait">The longest a partial batch waits for more items from a slow source. Positive.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>One result per batch; in source order when <see cref="ParallelOperatorOptions.Ordered"/>.</returns>
    /// <remarks>A failed batch is reported by the source index of its first item.</remarks>
    public static Task<TResult[]> BatchParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        TimeSpan maxWait,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        return BatchCoreAsync(source, batchSize, selector, maxWait, options, cancellationToken);
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
        var batches = Batches(source, batchSize);
        options = Prepare(selector, options);
        return ValuesOf(StreamAsync(ItemsOf(batches), selector, null, options, deliverFailures: false, cancellationToken), CancellationToken.None);
    }

    /// <summary>Like <see cref="BatchParallelAsync{TSource, TResult}(IAsyncEnumerable{TSource}, int, Func{IReadOnlyList{TSource}, CancellationToken, ValueTask{TResult}}, ParallelOperatorOptions?, CancellationToken)"/>, yielding each batch's result as soon as it may be seen.</summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type of one batch.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="batchSize">The largest batch.</param>
    /// <param name="selector">The work for one batch.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The batch results.</returns>
    public static IAsyncEnumerable<TResult> BatchParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        return BatchStreamCore(source, batchSize, selector, null, options, cancellationToken);
    }

    /// <summary>Like <see cref="BatchParallelAsync{TSource, TResult}(IAsyncEnumerable{TSource}, int, Func{IReadOnlyList{TSource}, CancellationToken, ValueTask{TResult}}, TimeSpan, ParallelOperatorOptions?, CancellationToken)"/>, yielding each batch's result as soon as it may be seen.</summary>
    /// <typeparam name="TSource">The source item type.</typeparam>
    /// <typeparam name="TResult">The result type of one batch.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="batchSize">The largest batch.</param>
    /// <param name="selector">The work for one batch.</param>
    /// <param name="maxWait">The longest a partial batch waits for more items from a slow source. Positive.</param>
    /// <param name="options">The options; <see cref="ParallelOperatorOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The batch results.</returns>
    public static IAsyncEnumerable<TResult> BatchParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        TimeSpan maxWait,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        return BatchStreamCore(source, batchSize, selector, maxWait, options, cancellationToken);
    }

    private static Task<TResult[]> BatchCoreAsync<TSource, TResult>(
        IAsyncEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        TimeSpan? maxWait,
        ParallelOperatorOptions? options,
        CancellationToken cancellationToken)
    {
        options = Prepare(selector, options);
        return SelectCoreAsync(ItemsOf(Batches(source, batchSize, maxWait, options), options), selector, null, options, cancellationToken);
    }

    private static IAsyncEnumerable<TResult> BatchStreamCore<TSource, TResult>(
        IAsyncEnumerable<TSource> source,
        int batchSize,
        Func<IReadOnlyList<TSource>, CancellationToken, ValueTask<TResult>> selector,
        TimeSpan? maxWait,
        ParallelOperatorOptions? options,
        CancellationToken cancellationToken)
    {
        options = Prepare(selector, options);
        return ValuesOf(StreamAsync(ItemsOf(Batches(source, batchSize, maxWait, options), options), selector, null, options, deliverFailures: false, cancellationToken), CancellationToken.None);
    }

    private static IEnumerable<IndexedBatch<TSource>> Batches<TSource>(IEnumerable<TSource> source, int batchSize)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);

        // Every batch but the last is full, so a batch's first source index is its number times the size.
        return source.Chunk(batchSize).Select((chunk, number) => new IndexedBatch<TSource>(chunk, (long)number * batchSize));
    }

    private static IAsyncEnumerable<IndexedBatch<TSource>> Batches<TSource>(IAsyncEnumerable<TSource> source, int batchSize, TimeSpan? maxWait, ParallelOperatorOptions options)
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

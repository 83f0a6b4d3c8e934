using System.Runtime.CompilerServices;

namespace Millrace.Parallel.Execution;

/// <summary>Groups an asynchronous sequence into batches by size and, optionally, by the age of a batch's first item.</summary>
internal static class AsyncBatcher
{
    /// <summary>Yields batches of up to <paramref name="size"/> items; with <paramref name="maxWait"/>, a batch is also
    /// yielded when its first item has waited that long, so a slow source never holds items back indefinitely.</summary>
    /// <typeparam name="T">The item type.</typeparam>
    /// <param name="source">The items.</param>
    /// <param name="size">The largest batch.</param>
    /// <param name="maxWait">The longest a partial batch waits for more items, if any.</param>
    /// <param name="time">The clock for <paramref name="maxWait"/>.</param>
    /// <param name="cancellationToken">Stops the batching.</param>
    /// <returns>The batches, each with the source index of its first item.</returns>
    public static async IAsyncEnumerable<IndexedBatch<T>> BatchAsync<T>(
        IAsyncEnumerable<T> source,
        int size,
        TimeSpan? maxWait,
        TimeProvider time,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var batch = new List<T>(size);
        var enumerator = source.GetAsyncEnumerator(cancellationToken);
        Task<bool>? pending = null;
        long firstIndex = 0;
        try
        {
            long firstItemAt = 0;
            while (true)
            {
                pending ??= enumerator.MoveNextAsync().AsTask();
                if (batch.Count > 0 && maxWait is { } wait && !pending.IsCompleted)
                {
                    var remaining = wait - time.GetElapsedTime(firstItemAt);
                    if (remaining > TimeSpan.Zero)
                    {
                        using var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                        var delay = Task.Delay(remaining, time, timer.Token);
                        await Task.WhenAny(pending, delay).ConfigureAwait(false);
                        await timer.CancelAsync().ConfigureAwait(false);
                    }

                    if (!pending.IsCompleted)
                    {
                        yield return new IndexedBatch<T>([.. batch], firstIndex);
                        firstIndex += batch.Count;
                        batch.Clear();
                        continue;
                    }
                }

                var hasItem = await pending.ConfigureAwait(false);
                pending = null;
                if (!hasItem)
                {
                    break;
                }

                if (batch.Count == 0)
                {
                    firstItemAt = time.GetTimestamp();
                }

                batch.Add(enumerator.Current);
                if (batch.Count == size)
                {
                    yield return new IndexedBatch<T>([.. batch], firstIndex);
                    firstIndex += batch.Count;
                    batch.Clear();
                }
            }

            if (batch.Count > 0)
            {
                yield return new IndexedBatch<T>([.. batch], firstIndex);
            }
        }
        finally
        {
            if (pending is not null)
            {
                // An enumerator must not be disposed while MoveNextAsync runs: wait for it, whatever it ends with.
                await pending.ContinueWith(static _ => { }, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default).ConfigureAwait(false);
            }

            await enumerator.DisposeAsync().ConfigureAwait(false);
        }
    }
}

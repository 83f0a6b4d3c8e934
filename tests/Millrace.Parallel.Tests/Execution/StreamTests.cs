namespace Millrace.Parallel.Tests.Execution;

public class StreamTests
{
    [Fact]
    public async Task OrderedStream_EqualsSourceOrder()
    {
        var results = new List<int>();
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 8, Ordered = true, OrderingWindow = 16 };
        await foreach (var value in new CountingSource(3_000).ItemsAsync().SelectParallelStreamAsync(
            async (x, ct) =>
            {
                await Task.Delay(x % 97 == 0 ? 2 : 0, ct);
                return x;
            },
            options))
        {
            results.Add(value);
        }

        Assert.Equal(Enumerable.Range(0, 3_000), results);
    }

    [Fact]
    public async Task OrderedStream_HoldsBackAtMostTheWindowBehindOneSlowItem()
    {
        var slow = new TaskCompletionSource();
        var started = 0;
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 4, Ordered = true, OrderingWindow = 10 };
        var consumed = new List<int>();
        var consumer = Task.Run(async () =>
        {
            await foreach (var value in Enumerable.Range(0, 1_000).SelectParallelStreamAsync(
                async (x, ct) =>
                {
                    Interlocked.Increment(ref started);
                    if (x == 0)
                    {
                        await slow.Task;
                    }

                    return x;
                },
                options))
            {
                consumed.Add(value);
            }
        });

        // Item 0 blocks; items 1..9 finish and wait in the reorder buffer; item 10 cannot start.
        await Eventually.TrueAsync(() => Volatile.Read(ref started) == 10, "the window to fill");
        await Task.Delay(50);
        Assert.Equal(10, Volatile.Read(ref started));
        Assert.Empty(consumed);
        slow.SetResult();
        await consumer.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.Equal(Enumerable.Range(0, 1_000), consumed);
    }

    [Fact]
    public async Task UnorderedStream_SlowConsumerStopsTheWorkersAtTheWindow()
    {
        var started = 0;
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 4, OrderingWindow = 6 };
        await using var enumerator = Enumerable.Range(0, 1_000).SelectParallelStreamAsync(
            (x, ct) =>
            {
                Interlocked.Increment(ref started);
                return ValueTask.FromResult(x);
            },
            options).GetAsyncEnumerator();
        Assert.True(await enumerator.MoveNextAsync());
        await Task.Delay(100);
        // One result read releases one slot: at most window + 1 items have started.
        Assert.InRange(Volatile.Read(ref started), 1, 7);
    }

    [Fact]
    public async Task EarlyExit_CancelsAndAwaitsTheWorkersWithoutDeadlock()
    {
        var cancelled = 0;
        var source = new CountingSource(int.MaxValue);
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 4,
            Hooks = new ParallelHooks { OnCancel = _ => Interlocked.Increment(ref cancelled) },
        };
        var taken = 0;
        await foreach (var value in source.ItemsAsync().SelectParallelStreamAsync(
            async (x, ct) =>
            {
                if (x >= 5)
                {
                    await Task.Delay(Timeout.Infinite, ct);
                }

                return x;
            },
            options).WithCancellation(CancellationToken.None))
        {
            if (++taken == 3)
            {
                break;
            }
        }

        Assert.Equal(3, taken);
        Assert.True(source.Disposed);
        Assert.True(Volatile.Read(ref cancelled) > 0);
    }

    [Fact]
    public async Task FailFastStream_ThrowsTheFailure()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(async () =>
        {
            await foreach (var value in Enumerable.Range(0, 100).SelectParallelStreamAsync(
                (x, ct) => x == 50 ? ValueTask.FromException<int>(new InvalidOperationException("fifty")) : ValueTask.FromResult(x),
                new ParallelOperatorOptions { Ordered = true }))
            {
                Assert.True(value < 50);
            }
        });
        Assert.Equal("fifty", error.Message);
    }

    [Fact]
    public async Task BestEffortOrderedStream_MovesPastFailures()
    {
        var results = new List<int>();
        await foreach (var value in Enumerable.Range(0, 100).SelectParallelStreamAsync(
            (x, ct) => x % 10 == 0 ? ValueTask.FromException<int>(new InvalidOperationException()) : ValueTask.FromResult(x),
            new ParallelOperatorOptions { Ordered = true, ErrorMode = ErrorMode.BestEffort, OrderingWindow = 3, MaxDegreeOfParallelism = 3 }))
        {
            results.Add(value);
        }

        Assert.Equal(Enumerable.Range(0, 100).Where(x => x % 10 != 0), results);
    }
}

namespace Millrace.Parallel.Tests.Execution;

public class SelectParallelTests
{
    private static async ValueTask<int> Square(int x, CancellationToken ct)
    {
        if (x % 3 == 0)
        {
            await Task.Yield();
        }

        return x * x;
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(64)]
    public async Task Ordered_EqualsSourceOrder(int dop)
    {
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = dop, Ordered = true };
        var results = await Enumerable.Range(0, 2_000).SelectParallelAsync(Square, options);
        Assert.Equal(Enumerable.Range(0, 2_000).Select(x => x * x), results);
    }

    [Fact]
    public async Task Unordered_HasEveryResult()
    {
        var results = await Enumerable.Range(0, 2_000).SelectParallelAsync(Square, new ParallelOperatorOptions { MaxDegreeOfParallelism = 8 });
        Assert.Equal(Enumerable.Range(0, 2_000).Select(x => x * x), results.Order());
    }

    [Fact]
    public async Task Unordered_ReturnsResultsInCompletionOrder()
    {
        // Eight items start at once and are let finish one at a time in this order; the results must follow it.
        int[] finishOrder = [5, 2, 7, 0, 3, 6, 1, 4];
        var gates = Enumerable.Range(0, 8).Select(_ => new TaskCompletionSource()).ToArray();
        var started = 0;
        var completed = 0;
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 8,
            Hooks = new ParallelHooks { OnComplete = _ => Interlocked.Increment(ref completed) },
        };
        var run = Enumerable.Range(0, 8).SelectParallelAsync(
            async (x, ct) =>
            {
                Interlocked.Increment(ref started);
                await gates[x].Task;
                return x;
            },
            options);

        await Eventually.TrueAsync(() => Volatile.Read(ref started) == 8, "every item to start");
        for (var i = 0; i < finishOrder.Length; i++)
        {
            // The gate's continuation runs the item to its end inline, so it is collected before the next gate opens.
            gates[finishOrder[i]].SetResult();
            await Eventually.TrueAsync(() => Volatile.Read(ref completed) == i + 1, $"item {finishOrder[i]} to complete");
        }

        Assert.Equal(finishOrder, await run.WaitAsync(TimeSpan.FromSeconds(10)));
    }

    [Fact]
    public async Task AsyncSource_OrderedEqualsSourceOrder()
    {
        var source = new CountingSource(1_000);
        var results = await source.ItemsAsync().SelectParallelAsync(Square, new ParallelOperatorOptions { MaxDegreeOfParallelism = 8, Ordered = true });
        Assert.Equal(Enumerable.Range(0, 1_000).Select(x => x * x), results);
        Assert.True(source.Disposed);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task Unlimited_EveryItemRunningAtOnce_GivesEveryResult(bool ordered)
    {
        // 300 items all held until the last has started: 300 workers at once, each collecting its own results.
        const int Items = 300;
        var started = 0;
        var all = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = ParallelOperatorConstants.Unlimited, Ordered = ordered };
        var results = await Enumerable.Range(0, Items).SelectParallelAsync(
            async (x, ct) =>
            {
                if (Interlocked.Increment(ref started) == Items)
                {
                    all.SetResult();
                }

                await all.Task.WaitAsync(ct);
                return x;
            },
            options).WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(Enumerable.Range(0, Items), ordered ? results : results.Order());
    }

    [Theory]
    [InlineData(5, 40, true)]
    [InlineData(5, 40, false)]
    [InlineData(40, 5, true)]
    [InlineData(40, 5, false)]
    public async Task CollectionWhoseCountIsWrong_StillGivesEveryResult(int claimed, int actual, bool ordered)
    {
        // Results are collected into an array sized from the source's count; items past it, or slots never filled, must not be lost or invented.
        var source = new MiscountedCollection(claimed, actual);
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 4, Ordered = ordered };
        var results = await source.SelectParallelAsync(Square, options);
        var expected = Enumerable.Range(0, actual).Select(x => x * x);
        Assert.Equal(expected, ordered ? results : results.Order());

        var outcomes = await source.SelectParallelResultsAsync(Square, options);
        Assert.Equal(Enumerable.Range(0, actual).Select(x => (long)x), ordered ? outcomes.Select(r => r.Index) : outcomes.Select(r => r.Index).Order());
    }

    [Fact]
    public async Task EmptySource_GivesNoResults()
    {
        Assert.Empty(await Array.Empty<int>().SelectParallelAsync(Square));
        Assert.Empty(await new CountingSource(0).ItemsAsync().SelectParallelAsync(Square));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(16)]
    public async Task NeverMoreThanTheLimitInFlight(int dop)
    {
        var probe = new ConcurrencyProbe();
        await new CountingSource(500).ItemsAsync().ForEachParallelAsync(
            async (x, ct) =>
            {
                using (probe.Enter())
                {
                    await Task.Delay(x % 5 == 0 ? 1 : 0, ct);
                    await Task.Yield();
                }
            },
            new ParallelOperatorOptions { MaxDegreeOfParallelism = dop });
        Assert.InRange(probe.Max, 1, dop);
    }

    [Fact]
    public async Task AsyncSource_IsNeverReadFurtherAheadThanTheInputBuffer()
    {
        var source = new CountingSource(10_000);
        var gate = new TaskCompletionSource();
        var started = 0;
        var run = source.ItemsAsync().ForEachParallelAsync(
            async (x, ct) =>
            {
                Interlocked.Increment(ref started);
                await gate.Task.WaitAsync(ct);
            },
            new ParallelOperatorOptions { MaxDegreeOfParallelism = 2, InputBufferSize = 5 });
        while (Volatile.Read(ref started) < 2)
        {
            await Task.Delay(1);
        }

        await Task.Delay(50);
        // 2 in flight, 5 buffered, 1 held by the pump waiting for room.
        Assert.InRange(source.Yielded, 2, 8);
        gate.SetResult();
        await run;
        Assert.Equal(10_000, source.Yielded);
    }

    [Fact]
    public async Task Cancellation_StopsReadingAndReturnsPromptly()
    {
        var source = new CountingSource(1_000_000);
        using var cts = new CancellationTokenSource();
        var started = 0;
        var run = source.Items().ForEachParallelAsync(
            async (x, ct) =>
            {
                var n = Interlocked.Increment(ref started);
                if (n < 10)
                {
                    return;
                }

                if (n == 10)
                {
                    await cts.CancelAsync();
                }

                await Task.Delay(Timeout.Infinite, ct);
            },
            new ParallelOperatorOptions { MaxDegreeOfParallelism = 4 },
            cts.Token);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(TimeSpan.FromSeconds(10)));
        var readAtCancel = source.Yielded;
        Assert.InRange(readAtCancel, 10, 14);
        Assert.True(source.Disposed);
    }

    [Fact]
    public async Task SourceThatThrows_FailsTheRunWithItsException()
    {
        static IEnumerable<int> Broken()
        {
            yield return 1;
            throw new InvalidDataException("source broke");
        }

        static async IAsyncEnumerable<int> BrokenAsync()
        {
            await Task.Yield();
            yield return 1;
            throw new InvalidDataException("source broke");
        }

        var sync = await Assert.ThrowsAsync<InvalidDataException>(() => Broken().SelectParallelAsync(Square, new ParallelOperatorOptions { ErrorMode = ErrorMode.BestEffort }));
        var async = await Assert.ThrowsAsync<InvalidDataException>(() => BrokenAsync().SelectParallelAsync(Square, new ParallelOperatorOptions { ErrorMode = ErrorMode.BestEffort }));
        Assert.Equal("source broke", sync.Message);
        Assert.Equal("source broke", async.Message);
    }

    /// <summary>A collection that reports one count and enumerates another, as a broken or concurrently changed one can.</summary>
    private sealed class MiscountedCollection(int claimed, int actual) : ICollection<int>
    {
        public int Count => claimed;

        public bool IsReadOnly => true;

        public IEnumerator<int> GetEnumerator() => Enumerable.Range(0, actual).GetEnumerator();

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();

        public bool Contains(int item) => item >= 0 && item < actual;

        public void CopyTo(int[] array, int arrayIndex) => throw new NotSupportedException();

        public void Add(int item) => throw new NotSupportedException();

        public bool Remove(int item) => throw new NotSupportedException();

        public void Clear() => throw new NotSupportedException();
    }
}

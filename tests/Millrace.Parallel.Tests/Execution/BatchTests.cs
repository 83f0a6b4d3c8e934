namespace Millrace.Parallel.Tests.Execution;

public class BatchTests
{
    [Fact]
    public async Task Batches_HaveTheRequestedSizeAndKeepOrder()
    {
        var sums = await Enumerable.Range(1, 1_005).BatchParallelAsync(
            100,
            (batch, ct) => ValueTask.FromResult((batch.Count, batch.Sum())),
            new ParallelOperatorOptions { Ordered = true });
        Assert.Equal(11, sums.Length);
        Assert.All(sums.Take(10), s => Assert.Equal(100, s.Count));
        Assert.Equal(5, sums[^1].Count);
        Assert.Equal(Enumerable.Range(1, 1_005).Sum(), sums.Sum(s => s.Item2));
        Assert.Equal(5_050, sums[0].Item2);
    }

    [Fact]
    public async Task AsyncBatches_StreamInOrder()
    {
        var counts = new List<int>();
        await foreach (var count in new CountingSource(250).ItemsAsync().BatchParallelStreamAsync(
            64,
            (batch, ct) => ValueTask.FromResult(batch[0]),
            options: new ParallelOperatorOptions { Ordered = true }))
        {
            counts.Add(count);
        }

        Assert.Equal([0, 64, 128, 192], counts);
    }

    [Fact]
    public async Task MaxWait_FlushesAPartialBatchFromASlowSource()
    {
        var time = new ManualTimeProvider();
        var third = new TaskCompletionSource();
        async IAsyncEnumerable<int> Slow()
        {
            yield return 1;
            yield return 2;
            await third.Task;
            yield return 3;
        }

        var batches = new List<string>();
        await using var enumerator = Slow().BatchParallelStreamAsync(
            100,
            (batch, ct) => ValueTask.FromResult(string.Join(',', batch)),
            TimeSpan.FromSeconds(1),
            new ParallelOperatorOptions { Ordered = true, TimeProvider = time }).GetAsyncEnumerator();
        var next = enumerator.MoveNextAsync().AsTask();
        await Eventually.TrueAsync(() => time.PendingTimers == 1, "the batch's wait to start");
        Assert.False(next.IsCompleted);
        time.Advance(TimeSpan.FromSeconds(1));
        Assert.True(await next.WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.Equal("1,2", enumerator.Current);
        third.SetResult();
        Assert.True(await enumerator.MoveNextAsync());
        Assert.Equal("3", enumerator.Current);
        Assert.False(await enumerator.MoveNextAsync());
    }

    [Fact]
    public async Task FailedBatches_AreReportedByTheirFirstItemsSourceIndex()
    {
        var failed = new System.Collections.Concurrent.ConcurrentQueue<long>();
        var options = new ParallelOperatorOptions
        {
            ErrorMode = ErrorMode.CollectAndContinue,
            Hooks = new ParallelHooks { OnError = f => failed.Enqueue(f.Index) },
        };
        ValueTask<int> FailOn20Or33(IReadOnlyList<int> batch, CancellationToken ct) =>
            batch.Contains(20) || batch.Contains(33) ? throw new IOException() : ValueTask.FromResult(batch.Count);

        var sync = await Assert.ThrowsAsync<ParallelAggregateException>(() => Enumerable.Range(0, 35).BatchParallelAsync(10, FailOn20Or33, options));
        Assert.Equal([20L, 30L], sync.Failures.Select(f => f.Index));
        Assert.Equal([20L, 30L], failed.Order());

        var async = await Assert.ThrowsAsync<ParallelAggregateException>(() => new CountingSource(35).ItemsAsync().BatchParallelAsync(10, FailOn20Or33, options));
        Assert.Equal([20L, 30L], async.Failures.Select(f => f.Index));
    }

    [Fact]
    public async Task AsyncBatching_TakesOptionsPositionally_AsSynchronousBatchingDoes()
    {
        var options = new ParallelOperatorOptions { Ordered = true };
        ValueTask<int> First(IReadOnlyList<int> batch, CancellationToken ct) => ValueTask.FromResult(batch[0]);
        Assert.Equal(new[] { 0, 2, 4 }, await new CountingSource(5).ItemsAsync().BatchParallelAsync(2, First, options));
        Assert.Equal(new[] { 0, 2, 4 }, await new CountingSource(5).ItemsAsync().BatchParallelAsync(2, First, TimeSpan.FromMinutes(1), options));
        Assert.Equal(new[] { 0, 2, 4 }, await new CountingSource(5).ItemsAsync().BatchParallelAsync(2, First, maxWait: TimeSpan.FromMinutes(1), options: options));
        var streamed = new List<int>();
        await foreach (var first in new CountingSource(5).ItemsAsync().BatchParallelStreamAsync(2, First, options))
        {
            streamed.Add(first);
        }

        Assert.Equal([0, 2, 4], streamed);
    }
}

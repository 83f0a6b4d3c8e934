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
}

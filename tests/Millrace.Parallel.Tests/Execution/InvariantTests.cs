using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Tests.Execution;

public class InvariantTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task EveryItemEndsExactlyOnce_With100000ItemsRandomFailuresRetriesAndCancellation(bool asyncSource)
    {
        const int Count = 100_000;
        var random = new Random(42);
        var failEvery = Enumerable.Range(0, Count).Select(_ => random.Next(100)).ToArray();
        var ends = new int[Count];
        var started = new int[Count];
        long completed = 0;
        long failed = 0;
        long cancelled = 0;
        using var cts = new CancellationTokenSource();
        var source = new CountingSource(Count);
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 8,
            ErrorMode = ErrorMode.BestEffort,
            Retry = new RetryOptions { MaxRetryAttempts = 2, Delay = TimeSpan.Zero },
            Hooks = new ParallelHooks
            {
                OnStart = i => Interlocked.Increment(ref started[i]),
                OnComplete = e => { Interlocked.Increment(ref ends[e.Index]); Interlocked.Increment(ref completed); },
                OnError = e => { Interlocked.Increment(ref ends[e.Index]); Interlocked.Increment(ref failed); },
                OnCancel = i => { Interlocked.Increment(ref ends[i]); Interlocked.Increment(ref cancelled); },
            },
        };
        var attempts = new int[Count];

        async ValueTask<int> Work(int x, CancellationToken ct)
        {
            var attempt = Interlocked.Increment(ref attempts[x]);
            if (x == 80_000)
            {
                await cts.CancelAsync();
            }

            if (x % 1_000 == 0)
            {
                await Task.Yield();
            }

            // 10% always fail, 10% fail on their first attempt only (so a retry succeeds).
            return failEvery[x] < 10 || (failEvery[x] < 20 && attempt == 1) ? throw new InvalidOperationException() : x;
        }

        var run = asyncSource
            ? source.ItemsAsync().SelectParallelAsync(Work, options, cts.Token)
            : source.Items().SelectParallelAsync(Work, options, cts.Token);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run);

        Assert.True(source.Disposed);
        var read = source.Yielded;
        Assert.InRange(read, 80_001, Count);
        Assert.All(ends.Take(read), e => Assert.Equal(1, e));
        Assert.All(ends.Skip(read), e => Assert.Equal(0, e));
        Assert.All(started, s => Assert.InRange(s, 0, 1));
        Assert.Equal(read, completed + failed + cancelled);
        Assert.True(failed > 0);
        Assert.True(completed > 70_000);
    }
}

/// <summary>Measures process-wide allocation, so it runs alone, after every parallel test class.</summary>
[CollectionDefinition(nameof(AllocationTests), DisableParallelization = true)]
public class AllocationTestsDefinition;

[Collection(nameof(AllocationTests))]
public class AllocationTests
{
    [Fact]
    public async Task WithEveryFeatureOff_TheRunAllocatesNothingPerItem()
    {
        static ValueTask Body(int x, CancellationToken ct) => default;
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 2, Metrics = false };
        var small = Enumerable.Range(0, 1_000).ToArray();
        var large = Enumerable.Range(0, 201_000).ToArray();

        await small.ForEachParallelAsync(Body, options);
        await large.ForEachParallelAsync(Body, options);
        var before = GC.GetTotalAllocatedBytes(precise: true);
        await small.ForEachParallelAsync(Body, options);
        var afterSmall = GC.GetTotalAllocatedBytes(precise: true);
        await large.ForEachParallelAsync(Body, options);
        var afterLarge = GC.GetTotalAllocatedBytes(precise: true);

        var perItem = ((afterLarge - afterSmall) - (afterSmall - before)) / 200_000.0;
        Assert.True(perItem < 1, $"{perItem:F2} bytes allocated per item");
    }

    [Fact]
    public async Task AsyncBodiesThatYield_AllocateOnlyTheirOwnStateMachines()
    {
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 2, Metrics = false };
        static async ValueTask Body(int x, CancellationToken ct) => await Task.Yield();
        var small = Enumerable.Range(0, 1_000).ToArray();
        var large = Enumerable.Range(0, 21_000).ToArray();
        await small.ForEachParallelAsync(Body, options);
        var before = GC.GetTotalAllocatedBytes(precise: true);
        await small.ForEachParallelAsync(Body, options);
        var afterSmall = GC.GetTotalAllocatedBytes(precise: true);
        await large.ForEachParallelAsync(Body, options);
        var afterLarge = GC.GetTotalAllocatedBytes(precise: true);
        var perItem = ((afterLarge - afterSmall) - (afterSmall - before)) / 20_000.0;

        // The body's own async state machine box is about 100 bytes; the run must add little on top.
        Assert.True(perItem < 200, $"{perItem:F2} bytes allocated per item");
    }
}

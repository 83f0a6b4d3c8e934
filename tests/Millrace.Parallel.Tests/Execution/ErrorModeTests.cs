using System.Collections.Concurrent;

namespace Millrace.Parallel.Tests.Execution;

public class ErrorModeTests
{
    private static ValueTask<int> FailOnMultiplesOf7(int x, CancellationToken ct) =>
        x % 7 == 6 ? ValueTask.FromException<int>(new InvalidOperationException($"item {x}")) : ValueTask.FromResult(x);

    [Fact]
    public async Task FailFast_ThrowsTheFirstFailure()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            Enumerable.Range(0, 100).SelectParallelAsync(FailOnMultiplesOf7, new ParallelOperatorOptions { MaxDegreeOfParallelism = 1 }));
        Assert.Equal("item 6", error.Message);
    }

    [Fact]
    public async Task FailFast_TakesNoItemFromTheSourceAfterTheFailureIsRecorded()
    {
        var failureRecorded = 0;
        var readAfterFailure = 0;
        IEnumerable<int> Source()
        {
            for (var i = 0; i < 100_000; i++)
            {
                if (Volatile.Read(ref failureRecorded) == 1)
                {
                    Interlocked.Increment(ref readAfterFailure);
                }

                yield return i;
            }
        }

        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 8,
            Hooks = new ParallelHooks { OnError = _ => Volatile.Write(ref failureRecorded, 1) },
        };
        await Assert.ThrowsAsync<InvalidOperationException>(() => Source().SelectParallelAsync(
            async (x, ct) =>
            {
                await Task.Yield();
                return x == 500 ? throw new InvalidOperationException("boom") : x;
            },
            options));
        Assert.Equal(1, failureRecorded);
        Assert.Equal(0, readAfterFailure);
    }

    [Fact]
    public async Task FailFast_CancelsItemsInFlight()
    {
        var cancelled = 0;
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 4, Hooks = new ParallelHooks { OnCancel = _ => Interlocked.Increment(ref cancelled) } };
        await Assert.ThrowsAsync<InvalidOperationException>(() => Enumerable.Range(0, 4).ForEachParallelAsync(
            async (x, ct) =>
            {
                if (x == 3)
                {
                    await Task.Delay(20, CancellationToken.None);
                    throw new InvalidOperationException("boom");
                }

                await Task.Delay(Timeout.Infinite, ct);
            },
            options).WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.Equal(3, cancelled);
    }

    [Fact]
    public async Task CollectAndContinue_FinishesEverythingThenListsEachFailedIndexInOrder()
    {
        var completed = 0;
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 4,
            ErrorMode = ErrorMode.CollectAndContinue,
            Hooks = new ParallelHooks { OnComplete = _ => Interlocked.Increment(ref completed) },
        };
        var error = await Assert.ThrowsAsync<ParallelAggregateException>(() => Enumerable.Range(0, 100).SelectParallelAsync(FailOnMultiplesOf7, options));
        var expected = Enumerable.Range(0, 100).Where(x => x % 7 == 6).Select(x => (long)x).ToArray();
        Assert.Equal(expected, error.Failures.Select(f => f.Index));
        Assert.Equal(expected.Length, error.InnerExceptions.Count);
        Assert.Equal(100 - expected.Length, completed);
        Assert.StartsWith("14 item(s) failed: items 6, 13, 20", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task BestEffort_SkipsFailuresAndReportsThemThroughTheHook()
    {
        var reported = new ConcurrentBag<long>();
        var options = new ParallelOperatorOptions
        {
            Ordered = true,
            ErrorMode = ErrorMode.BestEffort,
            Hooks = new ParallelHooks { OnError = e => reported.Add(e.Index) },
        };
        var results = await Enumerable.Range(0, 100).SelectParallelAsync(FailOnMultiplesOf7, options);
        Assert.Equal(Enumerable.Range(0, 100).Where(x => x % 7 != 6), results);
        Assert.Equal(Enumerable.Range(0, 100).Where(x => x % 7 == 6).Select(x => (long)x), reported.Order());
    }

    [Fact]
    public async Task Results_CarryEachItemsIndexAndError()
    {
        var results = await Enumerable.Range(0, 50).SelectParallelResultsAsync(FailOnMultiplesOf7, new ParallelOperatorOptions { Ordered = true });
        Assert.Equal(Enumerable.Range(0, 50).Select(x => (long)x), results.Select(r => r.Index));
        var failure = results[6];
        Assert.False(failure.IsSuccess);
        Assert.Equal(ParallelErrorCodes.ItemFailed, failure.Result.Error.Code);
        Assert.Equal(6, failure.Result.Error.ItemIndex);
        Assert.IsType<InvalidOperationException>(failure.Result.Error.Exception);
        Assert.Equal(5, results[5].Result.Value);
    }

    [Fact]
    public async Task ResultsStream_YieldsFailuresInOrder()
    {
        var results = new List<ItemResult<int>>();
        await foreach (var result in new CountingSource(50).ItemsAsync().SelectParallelResultsStreamAsync(FailOnMultiplesOf7, new ParallelOperatorOptions { Ordered = true, MaxDegreeOfParallelism = 4 }))
        {
            results.Add(result);
        }

        Assert.Equal(Enumerable.Range(0, 50).Select(x => (long)x), results.Select(r => r.Index));
        Assert.Equal(Enumerable.Range(0, 50).Select(x => x % 7 != 6), results.Select(r => r.IsSuccess));
    }

    [Fact]
    public async Task ThrowingHook_IsIgnoredUnlessConfiguredToPropagate()
    {
        var hooks = new ParallelHooks { OnStart = i => throw new InvalidOperationException("hook") };
        var results = await Enumerable.Range(0, 10).SelectParallelAsync((x, _) => ValueTask.FromResult(x), new ParallelOperatorOptions { Hooks = hooks });
        Assert.Equal(10, results.Length);

        var propagating = new ParallelHooks { OnStart = hooks.OnStart, PropagateExceptions = true };
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            Enumerable.Range(0, 10).SelectParallelAsync((x, _) => ValueTask.FromResult(x), new ParallelOperatorOptions { Hooks = propagating }));
        Assert.Equal("hook", error.Message);
    }
}

using System.Runtime.CompilerServices;

namespace Millrace.Parallel.Tests.Execution;

public class ArgumentTests
{
    private static readonly int[] Items = [1, 2, 3];

    private static async IAsyncEnumerable<int> ItemsAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        foreach (var item in Items)
        {
            await Task.Yield();
            yield return item;
        }
    }

    // A sequence whose count is not known without enumerating it, so a run cannot size itself from the count.
    private static IEnumerable<int> Uncounted()
    {
        foreach (var item in Items)
        {
            yield return item;
        }
    }

    public static TheoryData<string, Func<object>> NullWork()
    {
        Func<int, CancellationToken, ValueTask<int>> select = null!;
        Func<int, CancellationToken, ValueTask> body = null!;
        Func<IReadOnlyList<int>, CancellationToken, ValueTask<int>> batch = null!;
        Func<int, Exception, int> fallback = static (x, e) => x;
        return new TheoryData<string, Func<object>>
        {
            { "selector", () => Items.SelectParallelAsync(select) },
            { "selector", () => Items.SelectParallelAsync(select, fallback) },
            { "selector", () => ItemsAsync().SelectParallelAsync(select) },
            { "selector", () => ItemsAsync().SelectParallelAsync(select, fallback) },
            { "selector", () => Items.SelectParallelStreamAsync(select) },
            { "selector", () => Items.SelectParallelStreamAsync(select, fallback) },
            { "selector", () => ItemsAsync().SelectParallelStreamAsync(select) },
            { "selector", () => ItemsAsync().SelectParallelStreamAsync(select, fallback) },
            { "selector", () => Items.SelectParallelResultsAsync(select) },
            { "selector", () => ItemsAsync().SelectParallelResultsAsync(select) },
            { "selector", () => Items.SelectParallelResultsStreamAsync(select) },
            { "selector", () => ItemsAsync().SelectParallelResultsStreamAsync(select) },
            { "selector", () => Items.BatchParallelAsync(2, batch) },
            { "selector", () => ItemsAsync().BatchParallelAsync(2, batch) },
            { "selector", () => Items.BatchParallelStreamAsync(2, batch) },
            { "selector", () => ItemsAsync().BatchParallelStreamAsync(2, batch) },
            { "body", () => Items.ForEachParallelAsync(body) },
            { "body", () => ItemsAsync().ForEachParallelAsync(body) },
        };
    }

    [Theory]
    [MemberData(nameof(NullWork))]
    public void Operators_NullWork_ThrowWhenCalledNotWhenAwaitedOrEnumerated(string parameter, Func<object> call)
    {
        Assert.Equal(parameter, ThrownWhenCalled<ArgumentNullException>(call).ParamName);
    }

    private static T ThrownWhenCalled<T>(Func<object> call)
        where T : Exception =>
        Assert.Throws<T>(() => { _ = call(); });

    [Fact]
    public void ResultOperators_NullSourceAndInvalidOptions_ThrowWhenCalled()
    {
        var invalid = new ParallelOperatorOptions { MaxDegreeOfParallelism = 0 };
        static ValueTask<int> Select(int x, CancellationToken ct) => new(x);
        // Each call is made, not awaited: the exception must come from the call itself.
        Assert.Equal("source", ThrownWhenCalled<ArgumentNullException>(() => ((IEnumerable<int>)null!).SelectParallelResultsAsync(Select)).ParamName);
        Assert.Equal("source", ThrownWhenCalled<ArgumentNullException>(() => ((IAsyncEnumerable<int>)null!).SelectParallelResultsAsync(Select)).ParamName);
        ThrownWhenCalled<ArgumentException>(() => Items.SelectParallelResultsAsync(Select, invalid));
        ThrownWhenCalled<ArgumentException>(() => ItemsAsync().SelectParallelResultsAsync(Select, invalid));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task MaxDegreeOfParallelism_IntMaxValue_RunsEveryOperator(bool ordered)
    {
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = int.MaxValue, Ordered = ordered };
        static async ValueTask<int> Twice(int x, CancellationToken ct)
        {
            await Task.Yield();
            return 2 * x;
        }

        int[] expected = [2, 4, 6];
        Assert.Equal(expected, Sorted(await Items.SelectParallelAsync(Twice, options)));
        Assert.Equal(expected, Sorted(await Uncounted().SelectParallelAsync(Twice, options)));
        Assert.Equal(expected, Sorted(await ItemsAsync().SelectParallelAsync(Twice, options)));
        Assert.Equal(expected, Sorted(await Uncounted().SelectParallelStreamAsync(Twice, options).ToArrayAsync()));
        Assert.Equal(expected, Sorted(await ItemsAsync().SelectParallelStreamAsync(Twice, options).ToArrayAsync()));
        Assert.Equal(expected, Sorted((await ItemsAsync().SelectParallelResultsAsync(Twice, options)).Select(r => r.Result.Value).ToArray()));
        Assert.Equal(new[] { 3, 3 }, await Uncounted().BatchParallelAsync(2, (batch, ct) => new ValueTask<int>(batch.Sum()), options));
        await ItemsAsync().ForEachParallelAsync((x, ct) => default, options);

        int[] Sorted(int[] values) => ordered ? values : [.. values.Order()];
    }

    [Fact]
    public async Task OrderedStream_WithAWindowLargerThanItsFirstBuffer_KeepsSourceOrder()
    {
        // Item 0 finishes last, so the reorder buffer must hold 99 results: more than it starts with.
        var first = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 100, Ordered = true };
        var started = 0;
        var stream = Enumerable.Range(0, 200).SelectParallelStreamAsync(
            async (x, ct) =>
            {
                if (Interlocked.Increment(ref started) == 100)
                {
                    first.SetResult();
                }

                if (x == 0)
                {
                    await first.Task;
                }

                return x;
            },
            options);

        Assert.Equal(Enumerable.Range(0, 200), await stream.ToArrayAsync());
    }
}

[Collection(nameof(AllocationTests))]
public class RunCostTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task FewerItemsThanParallelism_CostDoesNotGrowWithParallelism(bool asyncSource)
    {
        static async IAsyncEnumerable<int> ThreeAsync()
        {
            await Task.Yield();
            yield return 1;
            yield return 2;
            yield return 3;
        }

        static IEnumerable<int> Three()
        {
            yield return 1;
            yield return 2;
            yield return 3;
        }

        async Task<long> AllocatedAsync(int dop)
        {
            var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = dop, Metrics = false };
            var before = GC.GetTotalAllocatedBytes(precise: true);
            var results = asyncSource
                ? await ThreeAsync().SelectParallelAsync((x, ct) => new ValueTask<int>(x), options)
                : await Three().SelectParallelAsync((x, ct) => new ValueTask<int>(x), options);
            Assert.Equal(3, results.Length);
            return GC.GetTotalAllocatedBytes(precise: true) - before;
        }

        await AllocatedAsync(4);
        var small = await AllocatedAsync(4);
        var huge = await AllocatedAsync(1_000_000);

        // A worker per unit of parallelism would be a million tasks (hundreds of megabytes); one per item is a few kilobytes.
        Assert.True(huge < small + 16_384, $"DOP 4: {small} bytes, DOP 1,000,000: {huge} bytes");
    }
}

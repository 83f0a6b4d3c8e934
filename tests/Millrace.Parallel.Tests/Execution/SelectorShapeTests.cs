using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Tests.Execution;

public class SelectorShapeTests
{
    public sealed record Price(string Sku, decimal Amount)
    {
        public static Price Unknown { get; } = new("?", -1);
    }

    public sealed class PriceApi
    {
        private int _calls;

        public int Calls => Volatile.Read(ref _calls);

        public async Task<Price> GetPriceAsync(string sku, CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref _calls);
            await Task.Yield();
            cancellationToken.ThrowIfCancellationRequested();
            return sku == "bad" ? throw new IOException("down") : new Price(sku, sku.Length);
        }
    }

    [Fact]
    public async Task ReadmeFirstExample_CompilesAsWritten_WithTaskReturningMethods()
    {
        var api = new PriceApi();
        string[] skus = ["a", "bb", "bad"];
        int[] pageIds = [1, 2, 3];
        var ct = CancellationToken.None;
        var rendered = new List<string>();
        void Render(string page) => rendered.Add(page);
        static async Task<string> FetchPageAsync(int id, CancellationToken cancellationToken)
        {
            await Task.Yield();
            return $"page {id}";
        }

        // The README's first example, verbatim from "var options" to the stream loop.
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 32, Ordered = true, PerAttemptTimeout = TimeSpan.FromSeconds(5),
            Retry = new RetryOptions { MaxRetryAttempts = 3, BackoffType = BackoffType.ExponentialJitter, ShouldHandle = e => e is HttpRequestException },
            CircuitBreaker = new CircuitBreakerOptions { FailureRatio = 0.5, BreakDuration = TimeSpan.FromSeconds(10) },
            RateLimit = new RateLimitOptions { PermitsPerPeriod = 100, Period = TimeSpan.FromSeconds(1) },
            Progress = new ProgressOptions { OnProgress = p => Console.WriteLine($"{p.Completed}/{p.Total} {p.ItemsPerSecond:F0}/s ETA {p.EstimatedRemaining}") },
        };
        Price[] prices = await skus.SelectParallelAsync((sku, ct) => api.GetPriceAsync(sku, ct), (sku, error) => Price.Unknown, options, ct);
        await foreach (var page in pageIds.SelectParallelStreamAsync(FetchPageAsync, options)) Render(page);

        Assert.Equal([new Price("a", 1), new Price("bb", 2), Price.Unknown], prices);
        Assert.Equal(["page 1", "page 2", "page 3"], rendered);
        Assert.Equal(3, api.Calls);
    }

    [Fact]
    public async Task SelectorsWithoutAToken_AndTaskReturningOnes_RunLikeTheRest()
    {
        var ordered = new ParallelOperatorOptions { Ordered = true };
        int[] items = [1, 2, 3];
        Assert.Equal(new[] { 2, 4, 6 }, await items.SelectParallelAsync(x => ValueTask.FromResult(x * 2), ordered));
        Assert.Equal(new[] { 2, 4, 6 }, await items.SelectParallelAsync(x => Task.FromResult(x * 2), ordered));
        Assert.Equal(new[] { 2, 4, 6 }, await items.SelectParallelAsync((x, _) => Task.FromResult(x * 2), ordered));
        Assert.Equal(new[] { 2, 4, 6 }, await Async(items).SelectParallelAsync(x => Task.FromResult(x * 2), ordered));

        var streamed = new List<int>();
        await foreach (var value in Async(items).SelectParallelStreamAsync(x => ValueTask.FromResult(x + 1), ordered))
        {
            streamed.Add(value);
        }

        Assert.Equal([2, 3, 4], streamed);

        var sum = 0;
        await items.ForEachParallelAsync(x => { Interlocked.Add(ref sum, x); return Task.CompletedTask; });
        await Async(items).ForEachParallelAsync((x, _) => { Interlocked.Add(ref sum, x); return Task.CompletedTask; });
        await items.ForEachParallelAsync(x => { Interlocked.Add(ref sum, x); return ValueTask.CompletedTask; });
        Assert.Equal(18, sum);
    }

    [Fact]
    public async Task AsyncLambdas_StillBindToTheValueTaskOverloads()
    {
        // Were the Task overloads equal in priority, these calls would be ambiguous and would not compile.
        Assert.Equal(new[] { 1 }, await new[] { 1 }.SelectParallelAsync(async (x, ct) => { await Task.Yield(); return x; }));
        Assert.Equal(new[] { 1 }, await new[] { 1 }.SelectParallelAsync(async x => { await Task.Yield(); return x; }));
        await new[] { 1 }.ForEachParallelAsync(async (x, ct) => await Task.Yield());
    }

    [Fact]
    public void NullTaskSelectors_AreReportedByTheirParameterName_WhenTheOperatorIsCalled()
    {
        Func<int, Task<int>> tokenless = null!;
        Func<int, CancellationToken, Task<int>> withToken = null!;
        Func<int, Task> body = null!;
        Assert.Equal("selector", Assert.Throws<ArgumentNullException>(() => { _ = new[] { 1 }.SelectParallelAsync(tokenless); }).ParamName);
        Assert.Equal("selector", Assert.Throws<ArgumentNullException>(() => new[] { 1 }.SelectParallelStreamAsync(withToken)).ParamName);
        Assert.Equal("body", Assert.Throws<ArgumentNullException>(() => { _ = new[] { 1 }.ForEachParallelAsync(body); }).ParamName);
    }

    private static async IAsyncEnumerable<int> Async(IEnumerable<int> items)
    {
        foreach (var item in items)
        {
            await Task.Yield();
            yield return item;
        }
    }
}

using System.Collections.Concurrent;
using Millrace.Parallel.CircuitBreaker;

namespace Millrace.Parallel.Tests.CircuitBreaker;

public class SharedCircuitBreakerTests
{
    [Fact]
    public async Task SharedBreaker_OpenedByOneRun_RejectsTheNextRunsAttempts()
    {
        var breaker = new SharedCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 2, BreakDuration = TimeSpan.FromHours(1) });
        var firstChanges = new ConcurrentQueue<CircuitStateChange>();
        var first = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 1,
            SharedCircuitBreaker = breaker,
            Hooks = new ParallelHooks { OnCircuitStateChange = firstChanges.Enqueue },
        };
        await Enumerable.Range(0, 2).SelectParallelResultsAsync<int, int>((_, _) => throw new IOException(), first);
        Assert.Equal(CircuitState.Open, breaker.State);
        Assert.Equal(CircuitState.Open, Assert.Single(firstChanges).To);

        var calls = 0;
        var second = first with { Hooks = null };
        var results = await Enumerable.Range(0, 3).SelectParallelResultsAsync(
            (x, _) =>
            {
                Interlocked.Increment(ref calls);
                return ValueTask.FromResult(x);
            },
            second);
        Assert.Equal(0, calls);
        Assert.All(results, r => Assert.IsType<CircuitOpenException>(r.Result.Error.Exception));
    }

    [Fact]
    public async Task PerRunBreaker_IsNotShared_BetweenRunsOfTheSameOptions()
    {
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 1,
            CircuitBreaker = new CircuitBreakerOptions { ConsecutiveFailures = 1, BreakDuration = TimeSpan.FromHours(1) },
        };
        await new[] { 0 }.SelectParallelResultsAsync<int, int>((_, _) => throw new IOException(), options);
        Assert.Equal(new[] { 5 }, await new[] { 5 }.SelectParallelAsync((x, _) => ValueTask.FromResult(x), options));
    }

    [Fact]
    public void SharedBreaker_ValidatesItsOptions_AndCannotBeSetWithPerRunOptions()
    {
        var invalid = Assert.Throws<ArgumentException>(() => new SharedCircuitBreaker(new CircuitBreakerOptions { FailureRatio = 2, HalfOpenProbes = 0 }));
        Assert.Contains("CircuitBreaker.FailureRatio", invalid.Message, StringComparison.Ordinal);
        Assert.Contains("CircuitBreaker.HalfOpenProbes", invalid.Message, StringComparison.Ordinal);

        var both = new ParallelOperatorOptions { CircuitBreaker = new CircuitBreakerOptions(), SharedCircuitBreaker = new SharedCircuitBreaker(new CircuitBreakerOptions()) };
        var error = Assert.Throws<ArgumentException>(both.Validate);
        Assert.Contains("not both", error.Message, StringComparison.Ordinal);
    }
}

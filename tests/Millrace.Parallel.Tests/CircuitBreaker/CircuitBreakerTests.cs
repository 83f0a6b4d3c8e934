using System.Collections.Concurrent;
using Millrace.Parallel.CircuitBreaker;

namespace Millrace.Parallel.Tests.CircuitBreaker;

public class CircuitBreakerTests
{
    private static (CircuitController Controller, ConcurrentQueue<CircuitStateChange> Changes, ManualTimeProvider Time) Create(CircuitBreakerOptions options)
    {
        var time = new ManualTimeProvider();
        var changes = new ConcurrentQueue<CircuitStateChange>();
        var controller = new CircuitController(options, time);
        controller.Subscribe(changes.Enqueue);
        return (controller, changes, time);
    }

    [Fact]
    public void ConsecutiveFailures_OpenTheCircuit_AndASuccessInBetweenResetsTheCount()
    {
        var (breaker, changes, _) = Create(new CircuitBreakerOptions { ConsecutiveFailures = 3 });
        breaker.OnFailure(0, new IOException());
        breaker.OnFailure(0, new IOException());
        breaker.OnSuccess(0);
        breaker.OnFailure(0, new IOException());
        breaker.OnFailure(0, new IOException());
        Assert.Equal(CircuitState.Closed, breaker.State);
        breaker.OnFailure(0, new IOException());
        Assert.Equal(CircuitState.Open, breaker.State);
        Assert.False(breaker.TryEnter(out _, out var retryAfter));
        Assert.Equal(TimeSpan.FromSeconds(5), retryAfter);
        Assert.Equal([(CircuitState.Closed, CircuitState.Open)], changes.Select(c => (c.From, c.To)));
    }

    [Fact]
    public void AfterTheBreak_OneProbeDecides()
    {
        var (breaker, changes, time) = Create(new CircuitBreakerOptions { ConsecutiveFailures = 1, BreakDuration = TimeSpan.FromSeconds(10) });
        breaker.OnFailure(0, new IOException());
        time.Advance(TimeSpan.FromSeconds(9));
        Assert.False(breaker.TryEnter(out _, out _));
        time.Advance(TimeSpan.FromSeconds(1));
        Assert.True(breaker.TryEnter(out var probe, out _));
        Assert.NotEqual(0, probe);
        Assert.Equal(CircuitState.HalfOpen, breaker.State);
        Assert.False(breaker.TryEnter(out _, out _));

        breaker.OnFailure(probe, new IOException());
        Assert.Equal(CircuitState.Open, breaker.State);
        time.Advance(TimeSpan.FromSeconds(10));
        Assert.True(breaker.TryEnter(out probe, out _));
        breaker.OnSuccess(probe);
        Assert.Equal(CircuitState.Closed, breaker.State);
        Assert.Equal(
            [(CircuitState.Closed, CircuitState.Open), (CircuitState.Open, CircuitState.HalfOpen), (CircuitState.HalfOpen, CircuitState.Open), (CircuitState.Open, CircuitState.HalfOpen), (CircuitState.HalfOpen, CircuitState.Closed)],
            changes.Select(c => (c.From, c.To)));
    }

    [Fact]
    public void CancelledProbe_FreesTheProbeSlotWithoutDeciding()
    {
        var (breaker, _, time) = Create(new CircuitBreakerOptions { ConsecutiveFailures = 1 });
        breaker.OnFailure(0, new IOException());
        time.Advance(TimeSpan.FromSeconds(5));
        Assert.True(breaker.TryEnter(out var probe, out _));
        breaker.OnFailure(probe, new OperationCanceledException());
        Assert.Equal(CircuitState.HalfOpen, breaker.State);
        Assert.True(breaker.TryEnter(out probe, out _));
        Assert.NotEqual(0, probe);
    }

    [Fact]
    public void FailureRatio_OpensOnlyWithEnoughThroughputInTheWindow()
    {
        var (breaker, _, time) = Create(new CircuitBreakerOptions { FailureRatio = 0.5, MinimumThroughput = 10, SamplingDuration = TimeSpan.FromSeconds(10) });
        for (var i = 0; i < 4; i++)
        {
            breaker.OnSuccess(0);
            breaker.OnFailure(0, new IOException());
        }

        Assert.Equal(CircuitState.Closed, breaker.State);
        time.Advance(TimeSpan.FromSeconds(11));
        breaker.OnSuccess(0);
        breaker.OnFailure(0, new IOException());
        Assert.Equal(CircuitState.Closed, breaker.State);
        for (var i = 0; i < 4; i++)
        {
            breaker.OnSuccess(0);
            breaker.OnFailure(0, new IOException());
        }

        Assert.Equal(CircuitState.Open, breaker.State);
    }

    [Fact]
    public async Task OpenCircuit_FailsItemsWithCircuitOpenException()
    {
        var changes = new ConcurrentQueue<CircuitStateChange>();
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 1,
            Ordered = true,
            CircuitBreaker = new CircuitBreakerOptions { ConsecutiveFailures = 2, BreakDuration = TimeSpan.FromHours(1) },
            Hooks = new ParallelHooks { OnCircuitStateChange = changes.Enqueue },
        };
        var calls = 0;
        var results = await Enumerable.Range(0, 6).SelectParallelResultsAsync<int, int>(
            (x, ct) =>
            {
                calls++;
                throw new IOException();
            },
            options);
        Assert.Equal(2, calls);
        Assert.All(results.Skip(2), r => Assert.IsType<CircuitOpenException>(r.Result.Error.Exception));
        Assert.Equal(CircuitState.Open, Assert.Single(changes).To);
    }
}

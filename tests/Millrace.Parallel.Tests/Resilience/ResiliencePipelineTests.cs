using System.Collections.Concurrent;
using System.Threading.RateLimiting;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Resilience;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Tests.Resilience;

public class ResiliencePipelineTests
{
    [Fact]
    public void Builder_RefusesStrategiesOutOfOrder_AndReportsEveryInvalidOptionAtOnce()
    {
        Assert.Throws<InvalidOperationException>(() => new ResiliencePipelineBuilder().AddConcurrencyLimiter(1).AddRetry(new RetryOptions()));
        Assert.Throws<InvalidOperationException>(() => new ResiliencePipelineBuilder().AddTimeout(TimeSpan.FromSeconds(1)).AddConcurrencyLimiter(1));
        Assert.Throws<InvalidOperationException>(() => new ResiliencePipelineBuilder().AddRetry(new RetryOptions()).AddRetry(new RetryOptions()));
        Assert.Throws<InvalidOperationException>(() => new ResiliencePipelineBuilder().AddTimeout(TimeSpan.FromSeconds(1)).AddTimeout(TimeSpan.FromSeconds(1)));

        var builder = new ResiliencePipelineBuilder()
            .AddRetry(new RetryOptions { MaxRetryAttempts = -1 })
            .AddConcurrencyLimiter(0)
            .AddCircuitBreaker(new CircuitBreakerOptions { WhenOpen = (CircuitOpenBehavior)7 })
            .AddTimeout(TimeSpan.Zero);
        var error = Assert.Throws<ArgumentException>(builder.Build);
        Assert.Contains("Retry.MaxRetryAttempts", error.Message, StringComparison.Ordinal);
        Assert.Contains("ConcurrencyLimiter.PermitLimit", error.Message, StringComparison.Ordinal);
        Assert.Contains("CircuitBreaker.WhenOpen", error.Message, StringComparison.Ordinal);
        Assert.Contains("Timeout", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ExecuteAsync_RetriesOnTheInjectedClock_AndThrowsTheLastFailure()
    {
        var time = new ManualTimeProvider();
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = time }
            .AddRetry(new RetryOptions { MaxRetryAttempts = 2, BackoffType = BackoffType.Constant, Delay = TimeSpan.FromSeconds(1) })
            .Build();

        var calls = 0;
        var value = await time.RunUntilAsync(pipeline.ExecuteAsync(_ => ++calls < 3 ? ValueTask.FromException<int>(new IOException()) : ValueTask.FromResult(42), CancellationToken.None).AsTask());
        Assert.Equal((42, 3), (value, calls));
        Assert.Equal(TimeSpan.FromSeconds(2), time.GetUtcNow() - new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero));

        calls = 0;
        var failure = await Assert.ThrowsAsync<IOException>(() => time.RunUntilAsync(pipeline.ExecuteAsync(
            _ =>
            {
                calls++;
                throw new IOException($"attempt {calls}");
            },
            CancellationToken.None).AsTask()));
        Assert.Equal(("attempt 3", 3), (failure.Message, calls));
    }

    [Fact]
    public async Task ExecuteAsync_Cancelled_ThrowsOperationCanceled_EvenDuringABackoff()
    {
        var time = new ManualTimeProvider();
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = time }
            .AddRetry(new RetryOptions { MaxRetryAttempts = 5, Delay = TimeSpan.FromSeconds(10) })
            .Build();
        using var cancel = new CancellationTokenSource();
        var call = pipeline.ExecuteAsync(_ => ValueTask.FromException(new IOException()), cancel.Token).AsTask();
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call);
    }

    [Fact]
    public async Task AGatesWait_DoesNotCountAgainstTheAttemptsTimeout()
    {
        // One slot: the second call waits two seconds for it, past its one-second timeout, and still runs.
        var time = new ManualTimeProvider();
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = time }
            .AddConcurrencyLimiter(1)
            .AddTimeout(TimeSpan.FromSeconds(1))
            .Build();
        var release = new TaskCompletionSource();
        var first = pipeline.ExecuteAsync(async ct => await release.Task.WaitAsync(ct), CancellationToken.None).AsTask();
        var second = pipeline.ExecuteAsync(
            ct =>
            {
                ct.ThrowIfCancellationRequested();
                return ValueTask.FromResult(2);
            },
            CancellationToken.None).AsTask();

        time.Advance(TimeSpan.FromMilliseconds(900));
        release.SetResult();
        await first;
        time.Advance(TimeSpan.FromSeconds(2));
        Assert.Equal(2, await second.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(0, time.PendingTimers);
    }

    [Fact]
    public async Task HoldingBreaker_MakesAttemptsWaitForTheBreak_InsteadOfFailingThem()
    {
        var time = new ManualTimeProvider();
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = time }
            .AddCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 1, BreakDuration = TimeSpan.FromSeconds(10), WhenOpen = CircuitOpenBehavior.Hold })
            .Build();
        await Assert.ThrowsAsync<IOException>(() => pipeline.ExecuteAsync(_ => ValueTask.FromException(new IOException()), CancellationToken.None).AsTask());

        var started = new ConcurrentQueue<TimeSpan>();
        var epoch = time.GetUtcNow();
        var held = Enumerable.Range(0, 3).Select(_ => pipeline.ExecuteAsync(
            ct =>
            {
                started.Enqueue(time.GetUtcNow() - epoch);
                return ValueTask.CompletedTask;
            },
            CancellationToken.None).AsTask()).ToArray();
        time.Advance(TimeSpan.FromSeconds(9));
        Assert.Empty(started);
        Assert.All(held, t => Assert.False(t.IsCompleted));

        // The break ends: one probe runs, succeeds and closes the circuit, and the held attempts follow it.
        await time.RunUntilAsync(Task.WhenAll(held));
        Assert.Equal(3, started.Count);
        Assert.All(started, at => Assert.Equal(TimeSpan.FromSeconds(10), at));
    }

    [Fact]
    public async Task SharedBreaker_IsolatedByHand_RefusesOrHoldsUntilClosed()
    {
        var time = new ManualTimeProvider();
        var failing = new SharedCircuitBreaker(new CircuitBreakerOptions(), time);
        var holding = new SharedCircuitBreaker(new CircuitBreakerOptions { WhenOpen = CircuitOpenBehavior.Hold }, time);
        var changes = new ConcurrentQueue<CircuitStateChange>();
        holding.StateChanged += (_, change) => changes.Enqueue(change);
        failing.Isolate();
        holding.Isolate();
        Assert.Equal((CircuitState.Isolated, CircuitState.Isolated), (failing.State, holding.State));

        var refused = new ResiliencePipelineBuilder { TimeProvider = time }.AddCircuitBreaker(failing).Build();
        await Assert.ThrowsAsync<CircuitOpenException>(() => refused.ExecuteAsync(_ => ValueTask.CompletedTask, CancellationToken.None).AsTask());

        var held = new ResiliencePipelineBuilder { TimeProvider = time }.AddCircuitBreaker(holding).Build();
        var call = held.ExecuteAsync(_ => ValueTask.FromResult(1), CancellationToken.None).AsTask();
        time.Advance(TimeSpan.FromHours(1));
        Assert.False(call.IsCompleted);
        holding.Close();
        Assert.Equal(1, await call.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal([(CircuitState.Closed, CircuitState.Isolated), (CircuitState.Isolated, CircuitState.Closed)], changes.Select(c => (c.From, c.To)));
    }

    [Fact]
    public void BreakerState_ReadsHalfOpen_OnceTheBreakHasEnded()
    {
        var time = new ManualTimeProvider();
        var breaker = new SharedCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 1, BreakDuration = TimeSpan.FromSeconds(5) }, time);
        breaker.Controller.OnFailure(0, new IOException());
        Assert.Equal(CircuitState.Open, breaker.State);
        time.Advance(TimeSpan.FromSeconds(5));
        Assert.Equal(CircuitState.HalfOpen, breaker.State);
    }

    [Fact]
    public async Task ARefusedGate_GivesBackWhatTheGatesBeforeItHandedOut()
    {
        // A probe taken by the breaker, then refused by a limiter with no room and no queue: the probe must be free again.
        var time = new ManualTimeProvider();
        var breaker = new SharedCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 1, BreakDuration = TimeSpan.FromSeconds(1) }, time);
        using var full = new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = 1, QueueLimit = 0 });
        using var held = full.AttemptAcquire();
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = time }.AddCircuitBreaker(breaker).AddRateLimiter(full).Build();
        breaker.Controller.OnFailure(0, new IOException());
        time.Advance(TimeSpan.FromSeconds(1));

        await Assert.ThrowsAsync<RateLimitRejectedException>(() => pipeline.ExecuteAsync(_ => ValueTask.CompletedTask, CancellationToken.None).AsTask());
        Assert.True(breaker.Controller.TryEnter(out var isProbe, out _));
        Assert.NotEqual(0, isProbe);
    }

    [Fact]
    public async Task AGateThatThrows_FailsTheAttempt_AndTheGatesBeforeItGiveBackWhatTheyHandedOut()
    {
        // A half-open probe, then a limiter whose permits come from a machine that cannot be reached: the attempt fails
        // with the limiter's error, which the retry judges, and the probe slot is free for the next attempt.
        var time = new ManualTimeProvider();
        var breaker = new SharedCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 1, BreakDuration = TimeSpan.FromSeconds(1) }, time);
        using var unreachable = new ThrowingLimiter();
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = time }
            .AddRetry(new RetryOptions { MaxRetryAttempts = 2, Delay = TimeSpan.Zero, ShouldHandle = e => e is not TimeoutException })
            .AddCircuitBreaker(breaker)
            .AddRateLimiter(unreachable)
            .Build();
        breaker.Controller.OnFailure(0, new IOException());
        time.Advance(TimeSpan.FromSeconds(1));

        await Assert.ThrowsAsync<TimeoutException>(() => pipeline.ExecuteAsync(_ => ValueTask.CompletedTask, CancellationToken.None).AsTask());
        Assert.Equal(1, unreachable.Calls);
        Assert.True(breaker.Controller.TryEnter(out var probe, out _));
        Assert.NotEqual(0, probe);
    }

    [Fact]
    public async Task AFailureWhileTheCallerCancels_DoesNotCountAgainstTheCircuit()
    {
        var breaker = new SharedCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 1 });
        var pipeline = new ResiliencePipelineBuilder().AddCircuitBreaker(breaker).Build();
        using var cancel = new CancellationTokenSource();
        await Assert.ThrowsAsync<IOException>(() => pipeline.ExecuteAsync(
            async _ =>
            {
                await cancel.CancelAsync();
                throw new IOException("the connection closed as the caller left");
            },
            cancel.Token).AsTask());
        Assert.Equal(CircuitState.Closed, breaker.State);
    }

    [Fact]
    public void AProbeFromAnEarlierHalfOpenPeriod_NeitherFreesNorDecidesTheCurrentOne()
    {
        var time = new ManualTimeProvider();
        var breaker = new SharedCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 1, BreakDuration = TimeSpan.FromSeconds(1) }, time);
        breaker.Controller.OnFailure(0, new IOException());
        time.Advance(TimeSpan.FromSeconds(1));
        Assert.True(breaker.Controller.TryEnter(out var stale, out _));

        // Isolated and let out again while that probe still runs: a new period, with a probe of its own.
        breaker.Isolate();
        breaker.Controller.EndIsolation();
        Assert.Equal(CircuitState.HalfOpen, breaker.State);
        Assert.True(breaker.Controller.TryEnter(out var current, out _));
        Assert.NotEqual(stale, current);

        breaker.Controller.OnSuccess(stale);
        Assert.Equal(CircuitState.HalfOpen, breaker.State);
        Assert.False(breaker.Controller.TryEnter(out _, out _));
        breaker.Controller.OnSuccess(current);
        Assert.Equal(CircuitState.Closed, breaker.State);
    }

    [Fact]
    public void AListenerThatThrows_DoesNotKeepTheOthersFromHearing()
    {
        var breaker = new SharedCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 1 });
        var heard = 0;
        breaker.StateChanged += (_, _) => throw new InvalidOperationException("a careless listener");
        breaker.StateChanged += (_, _) => heard++;
        Assert.Throws<InvalidOperationException>(breaker.Isolate);
        Assert.Equal((1, CircuitState.Isolated), (heard, breaker.State));
    }

    [Fact]
    public async Task OnePipeline_SharedByTwoRuns_BoundsTheirAttemptsTogether()
    {
        var pipeline = new ResiliencePipelineBuilder().AddConcurrencyLimiter(3).Build();
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 8, Pipeline = pipeline };
        var running = 0;
        var most = 0;
        async ValueTask<int> Body(int x, CancellationToken ct)
        {
            var now = Interlocked.Increment(ref running);
            InterlockedMax(ref most, now);
            await Task.Delay(5, ct);
            Interlocked.Decrement(ref running);
            return x;
        }

        var runs = await Task.WhenAll(
            Enumerable.Range(0, 40).SelectParallelAsync(Body, options),
            Enumerable.Range(0, 40).SelectParallelAsync(Body, options));
        Assert.All(runs, r => Assert.Equal(40, r.Length));
        Assert.InRange(most, 1, 3);
    }

    [Fact]
    public async Task RunsThroughAPipeline_HearOfItsRetriesAndBreakerChanges()
    {
        var time = new ManualTimeProvider();
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = time }
            .AddRetry(new RetryOptions { MaxRetryAttempts = 1, Delay = TimeSpan.Zero })
            .AddCircuitBreaker(new CircuitBreakerOptions { ConsecutiveFailures = 2 })
            .Build();
        var retries = new ConcurrentQueue<RetryArguments>();
        var changes = new ConcurrentQueue<CircuitStateChange>();
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 1,
            Pipeline = pipeline,
            TimeProvider = time,
            Hooks = new ParallelHooks { OnRetry = retries.Enqueue, OnCircuitStateChange = changes.Enqueue },
        };
        var results = await new[] { 7 }.SelectParallelResultsAsync<int, int>((_, _) => throw new IOException(), options);
        Assert.IsType<IOException>(Assert.Single(results).Result.Error.Exception);
        Assert.Equal(0, Assert.Single(retries).Index);
        Assert.Equal(CircuitState.Open, Assert.Single(changes).To);
    }

    [Fact]
    public void PipelineAndStrategyOptions_AreNotSetTogether()
    {
        var options = new ParallelOperatorOptions { Pipeline = ResiliencePipeline.Empty, PerAttemptTimeout = TimeSpan.FromSeconds(1) };
        var error = Assert.Throws<ArgumentException>(options.Validate);
        Assert.Contains("Set Pipeline or the strategy options", error.Message, StringComparison.Ordinal);
    }

    private static void InterlockedMax(ref int target, int value)
    {
        int current;
        while ((current = Volatile.Read(ref target)) < value && Interlocked.CompareExchange(ref target, value, current) != current)
        {
        }
    }

    /// <summary>A limiter whose permits come from somewhere that cannot be reached: every wait fails.</summary>
    private sealed class ThrowingLimiter : RateLimiter
    {
        public int Calls;

        public override TimeSpan? IdleDuration => null;

        public override RateLimiterStatistics? GetStatistics() => null;

        protected override RateLimitLease AttemptAcquireCore(int permitCount) => throw new TimeoutException("the limit's grain did not answer");

        protected override ValueTask<RateLimitLease> AcquireAsyncCore(int permitCount, CancellationToken cancellationToken)
        {
            Calls++;
            return ValueTask.FromException<RateLimitLease>(new TimeoutException("the limit's grain did not answer"));
        }
    }
}

using Millrace.Parallel.Adaptive;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Tests;

public class ParallelOperatorOptionsTests
{
    [Fact]
    public void Defaults_AreTheDocumentedOnes()
    {
        var options = new ParallelOperatorOptions();
        Assert.Equal(Environment.ProcessorCount, options.MaxDegreeOfParallelism);
        Assert.Null(options.InputBufferSize);
        Assert.Equal(Environment.ProcessorCount * 2, options.EffectiveInputBufferSize);
        Assert.False(options.Ordered);
        Assert.Null(options.OrderingWindow);
        Assert.Equal(Environment.ProcessorCount * 4, options.EffectiveOrderingWindow);
        Assert.Null(options.PerAttemptTimeout);
        Assert.Equal(ErrorMode.FailFast, options.ErrorMode);
        Assert.Null(options.Retry);
        Assert.Null(options.CircuitBreaker);
        Assert.Null(options.RateLimit);
        Assert.Null(options.AdaptiveConcurrency);
        Assert.Null(options.Progress);
        Assert.Null(options.Hooks);
        Assert.True(options.Metrics);
        Assert.Null(options.OperationName);
        Assert.Same(TimeProvider.System, options.TimeProvider);

        Assert.Null(options.SharedCircuitBreaker);
        Assert.Equal(-1, ParallelOperatorConstants.Unlimited);

        var retry = new RetryOptions();
        Assert.Null(retry.ShouldHandle);
        Assert.Equal(3, retry.MaxRetryAttempts);
        Assert.Equal(BackoffType.ExponentialJitter, retry.BackoffType);
        Assert.Equal(TimeSpan.FromMilliseconds(100), retry.Delay);
        Assert.Equal(TimeSpan.FromSeconds(30), retry.MaxDelay);

        var breaker = new CircuitBreakerOptions();
        Assert.Equal(5, breaker.ConsecutiveFailures);
        Assert.Null(breaker.FailureRatio);
        Assert.Equal(TimeSpan.FromSeconds(30), breaker.SamplingDuration);
        Assert.Equal(10, breaker.MinimumThroughput);
        Assert.Equal(TimeSpan.FromSeconds(5), breaker.BreakDuration);
        Assert.Equal(1, breaker.HalfOpenProbes);

        var rate = new RateLimitOptions { PermitsPerPeriod = 7 };
        Assert.Equal(TimeSpan.FromSeconds(1), rate.Period);
        Assert.Equal(7, rate.EffectiveBurst);

        var adaptive = new AdaptiveConcurrencyOptions();
        Assert.Equal(1, adaptive.MinLimit);
        Assert.Equal(4, adaptive.InitialLimit);
        Assert.Null(adaptive.MaxLimit);
        Assert.Equal(0.9, adaptive.BackoffRatio);

        Assert.Equal(TimeSpan.FromSeconds(1), new ProgressOptions().Interval);
    }

    [Fact]
    public void Validate_ListsEveryProblemAtOnce()
    {
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 0,
            InputBufferSize = 0,
            PerAttemptTimeout = TimeSpan.Zero,
            Retry = new RetryOptions { MaxRetryAttempts = -1, Delay = TimeSpan.FromSeconds(2), MaxDelay = TimeSpan.FromSeconds(1) },
            CircuitBreaker = new CircuitBreakerOptions { FailureRatio = 1.5 },
            RateLimit = new RateLimitOptions { PermitsPerPeriod = 0 },
            AdaptiveConcurrency = new AdaptiveConcurrencyOptions { BackoffRatio = 1 },
            Progress = new ProgressOptions(),
        };

        var error = Assert.Throws<ArgumentException>(options.Validate);
        foreach (var name in new[] { "MaxDegreeOfParallelism", "InputBufferSize", "PerAttemptTimeout", "Retry.MaxRetryAttempts", "Retry.MaxDelay", "CircuitBreaker.FailureRatio", "RateLimit.PermitsPerPeriod", "AdaptiveConcurrency.BackoffRatio", "Progress needs" })
        {
            Assert.Contains(name, error.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Operators_RejectInvalidOptionsBeforeReadingTheSource()
    {
        var read = false;
        IEnumerable<int> Source()
        {
            read = true;
            yield return 1;
        }

        await Assert.ThrowsAsync<ArgumentException>(() => Source().SelectParallelAsync((x, _) => ValueTask.FromResult(x), new ParallelOperatorOptions { MaxDegreeOfParallelism = -2 }));
        Assert.False(read);
    }

    [Fact]
    public async Task With_CopiesEveryPropertyAndTheCopyIsValidatedAgain()
    {
        var hooks = new ParallelHooks();
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 3, Hooks = hooks, OperationName = "prices" };
        var ordered = options with { Ordered = true };

        Assert.True(ordered.Ordered);
        Assert.False(options.Ordered);
        Assert.Equal(3, ordered.MaxDegreeOfParallelism);
        Assert.Same(hooks, ordered.Hooks);
        Assert.Equal("prices", ordered.OperationName);
        Assert.Equal(options with { Ordered = true }, ordered);

        // A valid instance that has already run must not vouch for a copy with an invalid change.
        Assert.Equal(new[] { 1, 2 }, await new[] { 1, 2 }.SelectParallelAsync((x, _) => ValueTask.FromResult(x), ordered));
        await Assert.ThrowsAsync<ArgumentException>(() => new[] { 1 }.SelectParallelAsync((x, _) => ValueTask.FromResult(x), ordered with { MaxDegreeOfParallelism = 0 }));
    }

    [Fact]
    public void FeatureOptions_AreRecordsToo_SoAVariantIsOneExpression()
    {
        var retry = new RetryOptions { MaxRetryAttempts = 2 };
        var patient = retry with { Delay = TimeSpan.FromSeconds(1) };
        Assert.Equal(2, patient.MaxRetryAttempts);
        Assert.Equal(TimeSpan.FromSeconds(1), patient.Delay);
        Assert.Equal(RetryConstants.Delay, retry.Delay);
        Assert.Equal(3, (new CircuitBreakerOptions() with { MinimumThroughput = 3 }).MinimumThroughput);
        Assert.Equal(TimeSpan.FromSeconds(2), (new RateLimitOptions { PermitsPerPeriod = 1 } with { Period = TimeSpan.FromSeconds(2) }).Period);
        Assert.Equal(2, (new AdaptiveConcurrencyOptions() with { MinLimit = 2 }).MinLimit);
        Assert.Equal(TimeSpan.FromSeconds(2), (new ProgressOptions() with { Interval = TimeSpan.FromSeconds(2) }).Interval);
        Assert.True((new ParallelHooks() with { PropagateExceptions = true }).PropagateExceptions);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-2)]
    [InlineData(int.MinValue)]
    public void Validate_RejectsMaxDegreeOfParallelismBelowOneOtherThanMinusOne(int value)
    {
        var error = Assert.Throws<ArgumentException>(new ParallelOperatorOptions { MaxDegreeOfParallelism = value }.Validate);
        Assert.Contains("-1 for no limit", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MaxDegreeOfParallelism_MinusOne_MeansNoLimit_AsParallelForEachAsync()
    {
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = ParallelOperatorConstants.Unlimited };
        options.Validate();
        Assert.Equal(int.MaxValue, options.WorkerLimit);

        // Every item waits until all have started: only a run without a limit can finish.
        const int Items = 64;
        var started = 0;
        var all = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await Enumerable.Range(0, Items).ForEachParallelAsync(
            async (_, ct) =>
            {
                if (Interlocked.Increment(ref started) == Items)
                {
                    all.SetResult();
                }

                await all.Task.WaitAsync(ct);
            },
            options).WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(Items, started);
    }
}

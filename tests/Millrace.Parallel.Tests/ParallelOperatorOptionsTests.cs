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
        Assert.Null(options.PerItemTimeout);
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

        var retry = new RetryOptions();
        Assert.Equal(3, retry.MaxRetries);
        Assert.Equal(BackoffType.ExponentialJitter, retry.Backoff);
        Assert.Equal(TimeSpan.FromMilliseconds(100), retry.BaseDelay);
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
            PerItemTimeout = TimeSpan.Zero,
            Retry = new RetryOptions { MaxRetries = -1, BaseDelay = TimeSpan.FromSeconds(2), MaxDelay = TimeSpan.FromSeconds(1) },
            CircuitBreaker = new CircuitBreakerOptions { FailureRatio = 1.5 },
            RateLimit = new RateLimitOptions { PermitsPerPeriod = 0 },
            AdaptiveConcurrency = new AdaptiveConcurrencyOptions { BackoffRatio = 1 },
            Progress = new ProgressOptions(),
        };

        var error = Assert.Throws<ArgumentException>(options.Validate);
        foreach (var name in new[] { "MaxDegreeOfParallelism", "InputBufferSize", "PerItemTimeout", "Retry.MaxRetries", "Retry.MaxDelay", "CircuitBreaker.FailureRatio", "RateLimit.PermitsPerPeriod", "AdaptiveConcurrency.BackoffRatio", "Progress needs" })
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

        await Assert.ThrowsAsync<ArgumentException>(() => Source().SelectParallelAsync((x, _) => ValueTask.FromResult(x), new ParallelOperatorOptions { MaxDegreeOfParallelism = -1 }));
        Assert.False(read);
    }
}

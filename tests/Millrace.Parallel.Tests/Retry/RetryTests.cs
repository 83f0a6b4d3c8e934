using System.Collections.Concurrent;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Tests.Retry;

public class RetryTests
{
    [Fact]
    public async Task TransientFailures_AreRetriedAfterTheBackoffOnTheInjectedClock()
    {
        var time = new ManualTimeProvider();
        var retries = new ConcurrentQueue<RetryArguments>();
        var attempts = 0;
        var options = new ParallelOperatorOptions
        {
            TimeProvider = time,
            Retry = new RetryOptions { MaxRetryAttempts = 3, BackoffType = BackoffType.Exponential, Delay = TimeSpan.FromMilliseconds(100) },
            Hooks = new ParallelHooks { OnRetry = retries.Enqueue },
        };
        var start = time.GetUtcNow();
        var results = await time.RunUntilAsync(new[] { 1 }.SelectParallelAsync(
            (x, ct) => ++attempts < 3 ? ValueTask.FromException<int>(new IOException("flaky")) : ValueTask.FromResult(x * 10),
            options));

        Assert.Equal([10], results);
        Assert.Equal(3, attempts);
        Assert.Equal([1, 2], retries.Select(r => r.Attempt));
        Assert.Equal([TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(200)], retries.Select(r => r.Delay));
        Assert.All(retries, r => Assert.IsType<IOException>(r.Exception));
        Assert.Equal(TimeSpan.FromMilliseconds(300), time.GetUtcNow() - start);
    }

    [Fact]
    public async Task NonTransientFailures_AreNotRetried()
    {
        var attempts = 0;
        var options = new ParallelOperatorOptions
        {
            Retry = new RetryOptions { MaxRetryAttempts = 5, Delay = TimeSpan.Zero, ShouldHandle = e => e is IOException },
        };
        await Assert.ThrowsAsync<FormatException>(() => new[] { 1 }.SelectParallelAsync<int, int>(
            (x, ct) =>
            {
                attempts++;
                throw new FormatException();
            },
            options));
        Assert.Equal(1, attempts);
    }

    [Fact]
    public async Task Fallback_ReplacesAnItemWhoseRetriesAreExhausted()
    {
        var attempts = 0;
        var options = new ParallelOperatorOptions { Retry = new RetryOptions { MaxRetryAttempts = 2, Delay = TimeSpan.Zero }, Ordered = true };
        var results = await Enumerable.Range(0, 3).SelectParallelAsync(
            (x, ct) =>
            {
                if (x == 1)
                {
                    Interlocked.Increment(ref attempts);
                    throw new IOException();
                }

                return ValueTask.FromResult(x);
            },
            (x, error) => error is IOException ? -x : throw error,
            options);
        Assert.Equal([0, -1, 2], results);
        Assert.Equal(3, attempts);
    }

    [Fact]
    public async Task Timeout_FailsAnAttemptWithTimeoutExceptionAndCountsForRetryAndFallback()
    {
        var time = new ManualTimeProvider();
        var attempts = 0;
        var options = new ParallelOperatorOptions
        {
            TimeProvider = time,
            PerAttemptTimeout = TimeSpan.FromSeconds(2),
            Retry = new RetryOptions { MaxRetryAttempts = 1, BackoffType = BackoffType.Constant, Delay = TimeSpan.FromSeconds(1) },
        };
        var errors = new ConcurrentQueue<Exception>();
        var results = await time.RunUntilAsync(new[] { 7 }.SelectParallelAsync(
            async (x, ct) =>
            {
                Interlocked.Increment(ref attempts);
                await Task.Delay(Timeout.Infinite, ct);
                return x;
            },
            (x, error) =>
            {
                errors.Enqueue(error);
                return -1;
            },
            options));

        Assert.Equal([-1], results);
        Assert.Equal(2, attempts);
        var timeout = Assert.IsType<TimeoutException>(Assert.Single(errors));
        Assert.Equal("The attempt did not finish within 00:00:02.", timeout.Message);
        Assert.Equal(TimeSpan.FromSeconds(5), time.GetUtcNow() - new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero));
    }

    [Fact]
    public async Task PerAttemptTimeout_StartsAfreshForEachRetry()
    {
        var time = new ManualTimeProvider();
        var attempts = 0;
        var options = new ParallelOperatorOptions
        {
            TimeProvider = time,
            PerAttemptTimeout = TimeSpan.FromSeconds(2),
            Retry = new RetryOptions { MaxRetryAttempts = 1, BackoffType = BackoffType.Constant, Delay = TimeSpan.Zero },
        };

        // Each attempt takes 1.5 s: together longer than the timeout, each within it.
        var results = await time.RunUntilAsync(new[] { 7 }.SelectParallelAsync(
            async (x, ct) =>
            {
                var attempt = Interlocked.Increment(ref attempts);
                await Task.Delay(TimeSpan.FromSeconds(1.5), time, ct);
                return attempt == 1 ? throw new IOException() : x;
            },
            options));

        Assert.Equal([7], results);
        Assert.Equal(2, attempts);
    }
}

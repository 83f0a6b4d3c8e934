using Millrace.Parallel.Adaptive;

namespace Millrace.Parallel.Tests.Adaptive;

public class AdaptiveConcurrencyTests
{
    private static AdaptiveConcurrencyLimiter Create(int initial = 4, int max = 64) =>
        new(new AdaptiveConcurrencyOptions { InitialLimit = initial, MinLimit = 1 }, max, _ => { });

    private static async Task RoundAsync(AdaptiveConcurrencyLimiter limiter, int items, long latency, bool failed = false)
    {
        for (var i = 0; i < items; i++)
        {
            await limiter.WaitAsync(CancellationToken.None);
        }

        for (var i = 0; i < items; i++)
        {
            limiter.Complete(latency, failed);
        }
    }

    [Fact]
    public async Task SlowStart_DoublesTheLimitEachFullRoundWhileLatencyHolds()
    {
        using var limiter = Create();
        await RoundAsync(limiter, 4, 100);
        Assert.Equal(8, limiter.Limit);
        await RoundAsync(limiter, 8, 100);
        Assert.Equal(16, limiter.Limit);
        await RoundAsync(limiter, 16, 110);
        await RoundAsync(limiter, 32, 105);
        Assert.Equal(64, limiter.Limit);
        await RoundAsync(limiter, 64, 100);
        Assert.Equal(64, limiter.Limit);
    }

    [Fact]
    public async Task UnusedLimit_DoesNotGrow()
    {
        using var limiter = Create(initial: 8);
        for (var i = 0; i < 100; i++)
        {
            await RoundAsync(limiter, 1, 100);
        }

        Assert.Equal(8, limiter.Limit);
    }

    [Fact]
    public async Task Congestion_LowersTheLimitOncePerRoundAndEndsSlowStart()
    {
        using var limiter = Create(initial: 20);
        await RoundAsync(limiter, 20, 100);
        var grown = limiter.Limit;
        await RoundAsync(limiter, grown, 1_000);
        Assert.Equal((int)(grown * 0.9), limiter.Limit);
        var afterCongestion = limiter.Limit;
        await RoundAsync(limiter, afterCongestion, 100);
        // Additive increase: one per round, not one per item.
        Assert.InRange(limiter.Limit, afterCongestion, afterCongestion + 1);
    }

    [Fact]
    public async Task Failures_LowerTheLimitDownToTheMinimum()
    {
        using var limiter = Create(initial: 4);
        for (var i = 0; i < 50; i++)
        {
            await RoundAsync(limiter, limiter.Limit, 100, failed: true);
        }

        Assert.Equal(1, limiter.Limit);
    }

    [Fact]
    public async Task LoweredLimit_WithholdsReturnedPermits()
    {
        using var limiter = Create(initial: 8);
        await RoundAsync(limiter, 8, 100, failed: true);
        Assert.Equal(7, limiter.Limit);
        for (var i = 0; i < 7; i++)
        {
            Assert.True(limiter.WaitAsync(CancellationToken.None).AsTask().IsCompletedSuccessfully);
        }

        var blocked = limiter.WaitAsync(CancellationToken.None).AsTask();
        Assert.False(blocked.IsCompleted);
        limiter.Complete(100, failed: false);
        await blocked.WaitAsync(TimeSpan.FromSeconds(10));
    }

    [Fact]
    public async Task SteadyFailureRate_DoesNotKeepLoweringTheLimit()
    {
        using var limiter = Create(initial: 10);
        for (var round = 0; round < 200; round++)
        {
            var size = limiter.Limit;
            for (var i = 0; i < size; i++)
            {
                await limiter.WaitAsync(CancellationToken.None);
            }

            for (var i = 0; i < size; i++)
            {
                limiter.Complete(100, failed: i == 0);
            }
        }

        Assert.True(limiter.Limit > 10, $"limit {limiter.Limit}");
    }

    [Fact]
    public async Task Operator_NeverExceedsTheAdaptiveMaximum()
    {
        var probe = new ConcurrencyProbe();
        var options = new ParallelOperatorOptions
        {
            AdaptiveConcurrency = new AdaptiveConcurrencyOptions { InitialLimit = 2, MaxLimit = 16 },
        };
        await Enumerable.Range(0, 400).ForEachParallelAsync(
            async (x, ct) =>
            {
                using (probe.Enter())
                {
                    await Task.Delay(1, ct);
                }
            },
            options);
        Assert.InRange(probe.Max, 2, 16);
    }
}

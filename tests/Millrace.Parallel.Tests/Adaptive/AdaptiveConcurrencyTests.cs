using Millrace.Parallel.Adaptive;

namespace Millrace.Parallel.Tests.Adaptive;

public class AdaptiveConcurrencyTests
{
    private static AdaptiveConcurrencyLimiter Create(int initial = 4, int max = 64) =>
        new(new AdaptiveConcurrencyOptions { InitialLimit = initial, MinLimit = 1 }, max, _ => { });

    private static async Task RoundAsync(AdaptiveConcurrencyLimiter limiter, int items, long latency, bool failed = false)
    {
        var tickets = new long[items];
        for (var i = 0; i < items; i++)
        {
            tickets[i] = await limiter.WaitAsync(CancellationToken.None);
        }

        foreach (var ticket in tickets)
        {
            limiter.Complete(ticket, latency, failed);
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
        var tickets = new long[8];
        for (var i = 0; i < 8; i++)
        {
            tickets[i] = await limiter.WaitAsync(CancellationToken.None);
        }

        limiter.Complete(tickets[0], 100, failed: true);
        Assert.Equal(7, limiter.Limit);
        using var cts = new CancellationTokenSource();
        var blocked = limiter.WaitAsync(cts.Token).AsTask();
        Assert.False(blocked.IsCompleted);
        limiter.Complete(tickets[1], 100, failed: false);
        Assert.Equal(7, limiter.Limit);
        await blocked.WaitAsync(TimeSpan.FromSeconds(10));
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

using Millrace.Parallel.Adaptive;

namespace Millrace.Parallel.Tests.Adaptive;

public class AdaptiveConcurrencyTests
{
    private static AdaptiveConcurrencyLimiter Create(int initial = 4, int max = 64) =>
        new(new AdaptiveConcurrencyOptions { InitialLimit = initial, MinLimit = 1 }, max, _ => { });

    /// <summary>Runs one round: the limit's worth of items at once, again and again, until the round's completions are in.</summary>
    private static async Task RoundAsync(AdaptiveConcurrencyLimiter limiter, long latency, bool failed = false)
    {
        var size = limiter.RoundSize;
        for (var done = 0; done < size;)
        {
            var batch = Math.Min(limiter.Limit, size - done);
            for (var i = 0; i < batch; i++)
            {
                await limiter.WaitAsync(CancellationToken.None);
            }

            for (var i = 0; i < batch; i++)
            {
                limiter.Complete(latency, failed);
            }

            done += batch;
        }
    }

    [Fact]
    public async Task SlowStart_DoublesTheLimitEachFullRoundWhileLatencyHolds()
    {
        using var limiter = Create();
        await RoundAsync(limiter, 100);
        Assert.Equal(8, limiter.Limit);
        await RoundAsync(limiter, 100);
        Assert.Equal(16, limiter.Limit);
        await RoundAsync(limiter, 100);
        await RoundAsync(limiter, 100);
        Assert.Equal(64, limiter.Limit);
        await RoundAsync(limiter, 100);
        Assert.Equal(64, limiter.Limit);
    }

    [Fact]
    public async Task UnusedLimit_DoesNotGrow()
    {
        using var limiter = Create(initial: 8);
        for (var i = 0; i < 100; i++)
        {
            await limiter.WaitAsync(CancellationToken.None);
            limiter.Complete(100, failed: false);
        }

        Assert.Equal(8, limiter.Limit);
    }

    [Fact]
    public async Task Congestion_CutsTheLimitAtMostInHalfPerRoundAndEndsSlowStart()
    {
        using var limiter = Create(initial: 20);
        await RoundAsync(limiter, 100);
        var grown = limiter.Limit;
        Assert.Equal(40, grown);

        // Ten times the no-load latency: nearly every item queued; the limit that would leave alpha queued is 7, but a round halves it at most.
        await RoundAsync(limiter, 1_000);
        Assert.Equal(grown / 2, limiter.Limit);
        var afterCongestion = limiter.Limit;
        await RoundAsync(limiter, 100);

        // Slow start is over: one per round, not one per item.
        Assert.Equal(afterCongestion + 1, limiter.Limit);
    }

    [Fact]
    public async Task ModerateQueue_MovesTheLimitToLeaveAlphaQueuedBeyondTheNoiseBand()
    {
        using var limiter = Create(initial: 16);
        await RoundAsync(limiter, 100);
        Assert.Equal(32, limiter.Limit);

        // No-load 100 with a first deviation of 25 tolerates up to 150. At 200, 8 of 32 items queue beyond that, well
        // past the band: the limit moves at once to 32 × 150 / 200 + alpha (0.75 × log10 32 = 1.1), so 25.
        await RoundAsync(limiter, 200);
        Assert.Equal(25, limiter.Limit);

        // Between alpha and 1.5 alpha queued (25.1 × (1 - 150/160) = 1.57; alpha 1.05): the limit holds.
        await RoundAsync(limiter, 160);
        Assert.Equal(25, limiter.Limit);
    }

    [Fact]
    public async Task RoundsThatMoveTogether_WithinTheirDeviation_AreNotReadAsAQueue()
    {
        // A coarse timer shifts whole rounds: 10.4, 12.5 or 14.6 ms for the same 10 ms wait. The limit must keep growing.
        using var limiter = Create(initial: 16, max: 64);
        long[] rounds = [104, 146, 125, 104, 146, 125, 146, 104, 125, 146, 104, 125, 146, 125, 104, 146];
        foreach (var latency in rounds)
        {
            await RoundAsync(limiter, latency);
        }

        Assert.True(limiter.Limit >= 24, $"limit {limiter.Limit}");
    }

    [Fact]
    public async Task BaselineFromOneLuckyRound_IsRebasedWhenCutsDoNotLowerTheLatency()
    {
        // A 2 ms timer wait on a 4 ms timer: the first small round can finish early (2.5 ms), every later one takes 4 ms
        // whatever the limit. Cuts that do not lower the latency are taken back and the band widened, so the limit
        // ends at the maximum instead of ratcheting down a step a round.
        using var limiter = Create(initial: 4, max: 16);
        await RoundAsync(limiter, 25);
        for (var round = 0; round < 12; round++)
        {
            await RoundAsync(limiter, 40);
        }

        Assert.Equal(16, limiter.Limit);
    }

    [Fact]
    public async Task OneRoundEndingEarlyTogether_DoesNotBecomeTheBaseline()
    {
        // A 2 ms timer wait that lasts 4.2 ms: now and then a whole round of 16 ends in 2.1 ms. Taken as the no-load
        // latency, that round would read every ordinary round after it as a queue of half the limit and cut it.
        using var limiter = Create(initial: 16, max: 16);
        long[] rounds = [42, 42, 42, 21, 42, 42, 42, 42, 21, 42, 42, 42];
        foreach (var latency in rounds)
        {
            await RoundAsync(limiter, latency);
            Assert.Equal(16, limiter.Limit);
        }
    }

    /// <summary>
    /// A service that answers in 10 ms up to 16 concurrent calls and in 10 ms × (c/16)² beyond: its throughput peaks
    /// at 1,600 calls/s at 16 and falls beyond. The simulation is discrete-event on simulated time: each call's
    /// latency is fixed when it starts, from the calls in flight, and the limiter sees every completion in order.
    /// </summary>
    private static double CongestedLatencyMs(int concurrency) =>
        concurrency <= 16 ? 10 : 10 * (concurrency / 16.0) * (concurrency / 16.0);

    // Latencies exact, or scattered ±5% or ±25% around the service's curve, call by call (seeded, so deterministic).
    [Theory]
    [InlineData(0.0)]
    [InlineData(0.05)]
    [InlineData(0.25)]
    public void CongestedService_LimitSettlesAtTheKneeInsteadOfClimbingToTheMaximum(double jitter)
    {
        using var limiter = Create(initial: 4, max: 128);
        var run = Simulate(limiter, CongestedLatencyMs, jitter, TimeSpan.FromSeconds(30), measureFrom: TimeSpan.FromSeconds(10));
        var bestFixed = Enumerable.Range(1, 128).Max(c => c / CongestedLatencyMs(c) * 1_000);

        Assert.InRange(run.MeanLimit, 14, 19);
        Assert.True(run.MaxLimit <= 24, $"the limit reached {run.MaxLimit}");
        Assert.True(run.Throughput >= 0.9 * bestFixed, $"{run.Throughput:F0}/s against {bestFixed:F0}/s at the best fixed limit");
        Assert.True(run.MeanLatencyMs <= 1.5 * CongestedLatencyMs(16), $"mean latency {run.MeanLatencyMs:F1} ms");
    }

    [Fact]
    public void CongestedService_ThatRecovers_LetsTheLimitRiseAgain()
    {
        // The knee moves from 16 to 48 after 10 s: the limit follows it up.
        using var limiter = Create(initial: 4, max: 128);
        var knee = 16.0;
        var run = Simulate(
            limiter,
            c => c <= knee ? 10 : 10 * (c / knee) * (c / knee),
            jitter: 0.02,
            TimeSpan.FromSeconds(30),
            measureFrom: TimeSpan.FromSeconds(20),
            onTime: t => knee = t >= TimeSpan.FromSeconds(10).Ticks ? 48 : 16);

        Assert.InRange(run.MeanLimit, 40, 54);
    }

    [Fact]
    public void LatencyIndependentOfConcurrency_LimitClimbsToTheMaximum()
    {
        using var limiter = Create(initial: 4, max: 64);
        var run = Simulate(limiter, _ => 10, jitter: 0.05, TimeSpan.FromSeconds(10), measureFrom: TimeSpan.FromSeconds(2));
        Assert.True(run.MeanLimit >= 60, $"mean limit {run.MeanLimit:F1}");
    }

    private sealed record Simulation(double Throughput, double MeanLatencyMs, double MeanLimit, int MaxLimit);

    private static Simulation Simulate(
        AdaptiveConcurrencyLimiter limiter,
        Func<int, double> latencyMs,
        double jitter,
        TimeSpan duration,
        TimeSpan measureFrom,
        Action<long>? onTime = null)
    {
        var random = new Random(14);
        var calls = new PriorityQueue<long, long>();
        long now = 0;
        var inFlight = 0;
        long completed = 0;
        double latencySum = 0, limitSum = 0;
        var maxLimit = 0;
        while (now < duration.Ticks)
        {
            onTime?.Invoke(now);
            while (inFlight < limiter.Limit)
            {
                // Below the limit a permit is free, so the wait completes at once.
                Assert.True(limiter.WaitAsync(CancellationToken.None).AsTask().IsCompletedSuccessfully);
                inFlight++;
                var latency = (long)(latencyMs(inFlight) * TimeSpan.TicksPerMillisecond * (1 + (jitter * ((2 * random.NextDouble()) - 1))));
                calls.Enqueue(latency, now + latency);
            }

            calls.TryDequeue(out var finished, out now);
            inFlight--;
            limiter.Complete(finished, failed: false);
            if (now >= measureFrom.Ticks)
            {
                completed++;
                latencySum += finished / (double)TimeSpan.TicksPerMillisecond;
                limitSum += limiter.Limit;
                maxLimit = Math.Max(maxLimit, limiter.Limit);
            }
        }

        return new Simulation(completed / (duration - measureFrom).TotalSeconds, latencySum / completed, limitSum / completed, maxLimit);
    }

    [Fact]
    public async Task Failures_LowerTheLimitDownToTheMinimum()
    {
        using var limiter = Create(initial: 4);
        for (var i = 0; i < 50; i++)
        {
            await RoundAsync(limiter, 100, failed: true);
        }

        Assert.Equal(1, limiter.Limit);
    }

    [Fact]
    public async Task LoweredLimit_WithholdsReturnedPermits()
    {
        using var limiter = Create(initial: 8);
        await RoundAsync(limiter, 100, failed: true);
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

using System.Collections.Concurrent;
using System.Threading.RateLimiting;
using Millrace.Parallel.RateLimit;

namespace Millrace.Parallel.Tests.RateLimit;

public class RateLimitTests
{
    [Fact]
    public async Task TokenBucket_LetsABurstThroughThenThePermitsOfEachPeriod()
    {
        var time = new ManualTimeProvider();
        var started = 0;
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 8,
            TimeProvider = time,
            RateLimit = new RateLimitOptions { PermitsPerPeriod = 2, Period = TimeSpan.FromSeconds(1), Burst = 3 },
        };
        var run = Enumerable.Range(0, 9).ForEachParallelAsync(
            (x, ct) =>
            {
                Interlocked.Increment(ref started);
                return default;
            },
            options);

        foreach (var expected in new[] { 3, 5, 7, 9 })
        {
            await Eventually.TrueAsync(() => Volatile.Read(ref started) == expected, $"{expected} items to start");
            await Task.Delay(20);
            Assert.Equal(expected, Volatile.Read(ref started));
            time.Advance(TimeSpan.FromSeconds(1));
        }

        await run.WaitAsync(TimeSpan.FromSeconds(10));
    }

    [Theory]
    [InlineData(-500)]
    [InlineData(100)]
    public async Task TokenBucket_TimerFiringEarlyOrLate_DeliversTheConfiguredRate(int skewDivisor)
    {
        // A timer due in d fires after d - d/500 (early) or d + d/100 (late), as real timers drift by a few ms a second.
        var time = new ManualTimeProvider { TimerSkew = d => d + TimeSpan.FromTicks(d.Ticks / skewDivisor) };
        var starts = new ConcurrentQueue<long>();
        var options = new ParallelOperatorOptions
        {
            MaxDegreeOfParallelism = 8,
            TimeProvider = time,
            RateLimit = new RateLimitOptions { PermitsPerPeriod = 50, Period = TimeSpan.FromSeconds(1) },
        };

        // Time moves on only once a period's 50 have started, as it would on a machine that is not slower than the timer.
        await time.RunUntilAsync(
            Enumerable.Range(0, 200).ForEachParallelAsync(
                (x, ct) =>
                {
                    starts.Enqueue(time.GetTimestamp());
                    return default;
                },
                options),
            canAdvance: () => starts.Count % 50 == 0);

        // 50 at once, then 50 as each period ends: the last start is at 3 s (plus one timer's lateness, never more).
        var perSecond = starts.GroupBy(t => t / TimeSpan.TicksPerSecond).OrderBy(g => g.Key).Select(g => g.Count()).ToArray();
        Assert.Equal([50, 50, 50, 50], perSecond);
        Assert.InRange(starts.Max(), TimeSpan.FromSeconds(3).Ticks, TimeSpan.FromSeconds(3.011).Ticks);
    }

    [Fact]
    public async Task CallersConcurrencyLimiter_IsHeldForTheWholeAttempt()
    {
        using var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = 2, QueueLimit = 100 });
        var probe = new ConcurrencyProbe();
        var entered = 0;
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 8, RateLimit = new RateLimitOptions { Limiter = limiter } };
        var run = Enumerable.Range(0, 40).ForEachParallelAsync(
            async (x, ct) =>
            {
                using (probe.Enter())
                {
                    Interlocked.Increment(ref entered);
                    await release.Task;
                }
            },
            options);

        // Two bodies hold the two permits and the six other workers queue in the limiter: no third body can be running.
        // The queue can fill before the two permit holders have been scheduled into their bodies: both are waited for.
        await Eventually.TrueAsync(() => limiter.GetStatistics()!.CurrentQueuedCount == 6 && Volatile.Read(ref entered) >= 2, "six workers to queue for a permit, two to hold one");
        Assert.Equal(2, Volatile.Read(ref entered));
        release.SetResult();
        await run.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.Equal(40, entered);
        Assert.Equal(2, probe.Max);
    }

    [Fact]
    public async Task RefusedPermit_FailsTheAttemptNotTheRun()
    {
        using var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = 1, QueueLimit = 0 });
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var options = new ParallelOperatorOptions { MaxDegreeOfParallelism = 2, RateLimit = new RateLimitOptions { Limiter = limiter } };
        var run = Enumerable.Range(0, 2).SelectParallelResultsAsync(
            async (x, ct) =>
            {
                await release.Task;
                return x;
            },
            options);

        // One item holds the only permit; the other is refused at once, as an item failure.
        await Eventually.TrueAsync(() => limiter.GetStatistics()!.TotalFailedLeases == 1, "a refused lease");
        release.SetResult();
        var results = await run.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.Single(results, r => !r.Result.IsSuccess);
        Assert.IsType<RateLimitRejectedException>(results.Single(r => !r.Result.IsSuccess).Result.Error.Exception);
    }
}

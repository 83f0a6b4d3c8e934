using Microsoft.Extensions.DependencyInjection;
using Millrace.Cluster.CircuitBreaker;
using Millrace.Cluster.Hosting;
using Millrace.Cluster.Jobs;

namespace Millrace.Cluster.Tests.CircuitBreaker;

public class ClusterCircuitBreakerTests
{
    private static WorkItem[] Items(string prefix, int count) => [.. Enumerable.Range(0, count).Select(i => new WorkItem($"{prefix}-{i}", $"{i}"))];

    [Fact]
    public async Task CircuitBreaker_FailuresSeenOnOneSilo_StopCallsOnEverySilo()
    {
        // Only the first silo can run the probe job, whose calls all fail: the cluster's ratio is its ratio.
        await using var cluster = await ClusterFixture.StartAsync(configure: (name, silo) =>
        {
            if (name == ClusterFixture.FirstSilo)
            {
                silo.AddMillraceWorker<FailingHandler>("down");
            }
        });
        var breaker = new ClusterCircuitBreakerOptions { Name = "svc", MinimumThroughput = 10, BreakDuration = TimeSpan.FromMinutes(10) };
        var options = new ClusterJobOptions { Retry = null, CircuitBreaker = breaker };
        await cluster.Jobs.SubmitAsync("probe", "down", Items("p", 10), options);
        var probe = await cluster.WatchToEndAsync("probe");
        Assert.All(probe, o => Assert.Equal(ClusterFixture.FirstSilo, o.Silo));
        Assert.All(probe, o => Assert.False(o.Succeeded));

        // The breaker opened on the tenth failure's report: the first silo hears the grain's verdict and isolates its local breaker.
        var first = cluster.Cluster.Silos[0].ServiceProvider.GetRequiredService<SharedLimits>().CircuitBreaker(breaker);
        await Eventually.TrueAsync(() => first.Breaker.State == Parallel.CircuitBreaker.CircuitState.Isolated, "the shared breaker to open");

        // The other silos lease the work's items and hold them: no call starts while the shared breaker is open.
        var submitted = cluster.Clock.GetTimestamp();
        await cluster.Jobs.SubmitAsync("work", TestHandler.Name, Items("w", 300), options);
        using (var limit = new CancellationTokenSource(TimeSpan.FromSeconds(30)))
        {
            while ((await cluster.Jobs.GetStatusAsync("work", limit.Token)).Leased == 0)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(10), cluster.Clock, limit.Token);
            }
        }

        await cluster.LetEveryWaitPassAsync(TimeSpan.Zero);
        Assert.DoesNotContain(cluster.Behaviour.CallTimes, t => t > submitted);

        // The break ends on the clock, not after ten minutes of waiting: a probe call, then every item, runs.
        cluster.Clock.Advance(breaker.BreakDuration);
        var work = await cluster.WatchToEndAsync("work");
        Assert.Equal(300, work.Count(o => o.Succeeded));
        var firstCall = cluster.Behaviour.CallTimes.Where(t => t > submitted).Min();
        Assert.True(cluster.Clock.GetElapsedTime(submitted, firstCall) > TimeSpan.FromMinutes(9), "a call started while the breaker was open");
        Assert.True(work.Select(o => o.Silo).Distinct().Count() >= 2);
    }

    [Fact]
    public async Task CircuitBreaker_OneSickSilo_HoldsBackOnlyItself()
    {
        // The first silo's calls all fail, the others' succeed: a third of the cluster's calls fail, under the ratio, and one
        // silo is short of the quorum of two, so the shared breaker stays closed and only the sick silo's local one opens.
        await using var cluster = await ClusterFixture.StartAsync(configure: (name, silo) =>
        {
            if (name == ClusterFixture.FirstSilo)
            {
                silo.AddMillraceWorker<FailingHandler>("mixed");
            }
            else
            {
                silo.AddMillraceWorker<TestHandler>("mixed");
            }
        });
        cluster.Behaviour.Delay = TimeSpan.FromMilliseconds(2);
        var breaker = new ClusterCircuitBreakerOptions { Name = "shared", MinimumThroughput = 10, BreakDuration = TimeSpan.FromSeconds(1) };
        await cluster.Jobs.SubmitAsync("mixed", "mixed", Items("m", 2_000), new ClusterJobOptions { Retry = null, CircuitBreaker = breaker });
        var outcomes = await cluster.WatchToEndAsync("mixed");

        Assert.Equal(2_000, outcomes.Count);
        Assert.All(outcomes.Where(o => !o.Succeeded), o => Assert.Equal(ClusterFixture.FirstSilo, o.Silo));

        // The healthy silos never paused for a break: no gap of a break's length between their calls.
        var healthy = cluster.Behaviour.CallTimes.Order().ToArray();
        var longestGap = healthy.Zip(healthy.Skip(1), (a, b) => cluster.Clock.GetElapsedTime(a, b)).Max();
        Assert.True(longestGap < TimeSpan.FromMilliseconds(800), $"the healthy silos paused for {longestGap}");

        // The sick silo's local breaker held it back: it failed far fewer items than its third.
        Assert.InRange(outcomes.Count(o => !o.Succeeded), 10, 500);
    }
}

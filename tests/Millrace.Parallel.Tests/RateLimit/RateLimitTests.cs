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
}

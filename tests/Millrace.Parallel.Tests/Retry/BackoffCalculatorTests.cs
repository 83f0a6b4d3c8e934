using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Tests.Retry;

public class BackoffCalculatorTests
{
    private static TimeSpan[] Delays(BackoffType type, double random = 0.5, int count = 5, int maxMs = 1000)
    {
        var options = new RetryOptions { BackoffType = type, Delay = TimeSpan.FromMilliseconds(100), MaxDelay = TimeSpan.FromMilliseconds(maxMs), Randomizer = () => random };
        var previous = TimeSpan.Zero;
        return [.. Enumerable.Range(0, count).Select(i => BackoffCalculator.NextDelay(options, i, ref previous))];
    }

    private static TimeSpan[] Ms(params double[] values) => [.. values.Select(TimeSpan.FromMilliseconds)];

    [Fact]
    public void Constant_IsTheBaseEveryTime() => Assert.Equal(Ms(100, 100, 100, 100, 100), Delays(BackoffType.Constant));

    [Fact]
    public void Linear_GrowsByTheBase() => Assert.Equal(Ms(100, 200, 300, 400, 500), Delays(BackoffType.Linear));

    [Fact]
    public void Exponential_DoublesUpToTheCap() => Assert.Equal(Ms(100, 200, 400, 800, 1000), Delays(BackoffType.Exponential));

    [Fact]
    public void ExponentialJitter_IsAUniformShareOfTheCappedExponential() =>
        Assert.Equal(Ms(50, 100, 200, 400, 500), Delays(BackoffType.ExponentialJitter));

    [Fact]
    public void DecorrelatedJitter_FollowsAwsFormula()
    {
        // sleep = min(cap, base + r × (previous × 3 − base)), previous starting at base; r = 0.5.
        // 100 + 0.5 × 200 = 200; 100 + 0.5 × 500 = 350; 100 + 0.5 × 950 = 575; 100 + 0.5 × 1625 = 912.5; capped 1000.
        Assert.Equal(Ms(200, 350, 575, 912.5, 1000), Delays(BackoffType.DecorrelatedJitter));
    }

    [Theory]
    [InlineData(BackoffType.ExponentialJitter)]
    [InlineData(BackoffType.DecorrelatedJitter)]
    public void Jitter_StaysWithinBounds(BackoffType type)
    {
        foreach (var random in new[] { 0.0, 0.999999 })
        {
            Assert.All(Delays(type, random, count: 20, maxMs: 5000), d => Assert.InRange(d, TimeSpan.Zero, TimeSpan.FromSeconds(5)));
        }
    }

    [Fact]
    public void HugeAttemptNumbers_StayAtTheCap() =>
        Assert.Equal(TimeSpan.FromMilliseconds(1000), Delays(BackoffType.Exponential, count: 1000)[^1]);
}

using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Tests.Retry;

public class RetryStrategyTests
{
    [Fact]
    public void ShouldRetry_StopsAtMaxRetryAttempts_AndAsksShouldHandle()
    {
        var strategy = new RetryStrategy(
            new RetryOptions { MaxRetryAttempts = 2, BackoffType = BackoffType.Linear, Delay = TimeSpan.FromSeconds(1), ShouldHandle = e => e is IOException },
            TimeProvider.System);
        var previous = TimeSpan.Zero;

        Assert.True(strategy.ShouldRetry(0, new IOException(), ref previous, out var first));
        Assert.Equal(TimeSpan.FromSeconds(1), first);
        Assert.True(strategy.ShouldRetry(1, new IOException(), ref previous, out var second));
        Assert.Equal(TimeSpan.FromSeconds(2), second);
        Assert.False(strategy.ShouldRetry(2, new IOException(), ref previous, out _));
        Assert.False(strategy.ShouldRetry(0, new InvalidOperationException(), ref previous, out _));
    }

    [Fact]
    public void ShouldRetry_ByDefault_RetriesAnythingButCancellation()
    {
        var strategy = new RetryStrategy(new RetryOptions { Delay = TimeSpan.Zero }, TimeProvider.System);
        var previous = TimeSpan.Zero;
        Assert.True(strategy.ShouldRetry(0, new TimeoutException(), ref previous, out _));
        Assert.False(strategy.ShouldRetry(0, new OperationCanceledException(), ref previous, out _));
    }
}

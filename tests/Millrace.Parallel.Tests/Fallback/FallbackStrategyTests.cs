using Millrace.Parallel.Fallback;

namespace Millrace.Parallel.Tests.Fallback;

public class FallbackStrategyTests
{
    [Fact]
    public void TryHandle_GivesTheFallbackValue_ForTheItemAndItsError()
    {
        var strategy = new FallbackStrategy<int, string>((item, error) => $"{item}:{error.Message}");
        Exception error = new IOException("down");
        Assert.True(strategy.TryHandle(3, ref error, out var value));
        Assert.Equal("3:down", value);
    }

    [Fact]
    public void TryHandle_AThrowingFallback_FailsWithItsOwnException()
    {
        var thrown = new InvalidOperationException("no fallback");
        var strategy = new FallbackStrategy<int, string>((_, _) => throw thrown);
        Exception error = new IOException("down");
        Assert.False(strategy.TryHandle(3, ref error, out _));
        Assert.Same(thrown, error);
    }
}

namespace Millrace.Testing;

/// <summary>Waits for a condition that other threads make true; fails the test instead of hanging.</summary>
internal static class Eventually
{
    public static async Task TrueAsync(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (!condition())
        {
            Assert.True(DateTime.UtcNow < deadline, $"Timed out waiting for {what}.");
            await Task.Delay(1);
        }
    }
}

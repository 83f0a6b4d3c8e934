// Calls a flaky price service for 200 products: 8 calls at once, at most 100 calls a second, transient failures
// retried with jittered exponential backoff, and a circuit breaker that stops hammering the service while it is
// down (items wait out the break through their retries). Products whose calls still fail get a fallback price instead of failing the whole run.
using Millrace.Parallel;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;

var service = new PriceService(failureRate: 0.2, outageAfterCalls: 120, outageLength: TimeSpan.FromMilliseconds(300));
var options = new ParallelOperatorOptions
{
    MaxDegreeOfParallelism = 8,
    Ordered = true,
    PerAttemptTimeout = TimeSpan.FromSeconds(2),
    Retry = new RetryOptions
    {
        MaxRetryAttempts = 4,
        BackoffType = BackoffType.ExponentialJitter,
        Delay = TimeSpan.FromMilliseconds(50),
        // An open circuit is transient too: the item waits out the break instead of failing at once.
        ShouldHandle = static e => e is HttpRequestException or TimeoutException or CircuitOpenException,
    },
    CircuitBreaker = new CircuitBreakerOptions { ConsecutiveFailures = 5, BreakDuration = TimeSpan.FromMilliseconds(200) },
    RateLimit = new RateLimitOptions { PermitsPerPeriod = 100, Period = TimeSpan.FromSeconds(1) },
    Progress = new ProgressOptions
    {
        Interval = TimeSpan.FromMilliseconds(500),
        OnProgress = static p => Console.WriteLine($"  {p.Completed + p.Failed}/{p.Total} done, {p.Retries} retries, {p.ItemsPerSecond:0} items/s, ETA {p.EstimatedRemaining:mm\\:ss}"),
    },
    Hooks = new ParallelHooks { OnCircuitStateChange = static change => Console.WriteLine($"  circuit {change.From} -> {change.To}") },
};

var products = Enumerable.Range(1, 200).ToArray();
var prices = await products.SelectParallelAsync(
    service.GetPriceAsync,
    static (product, error) => -1m,                 // the fallback once retries are exhausted or the circuit is open
    options);

Console.WriteLine($"{prices.Count(p => p >= 0)} prices, {prices.Count(p => p < 0)} fallbacks, {service.Calls} calls made");

/// <summary>A stand-in for a remote service that fails now and then, and goes down for a while once.</summary>
internal sealed class PriceService(double failureRate, int outageAfterCalls, TimeSpan outageLength)
{
    private readonly Lock _gate = new();
    private DateTime _outageEnds = DateTime.MinValue;
    private int _calls;

    public int Calls => _calls;

    public async ValueTask<decimal> GetPriceAsync(int product, CancellationToken cancellationToken)
    {
        await Task.Delay(5, cancellationToken);
        var call = Interlocked.Increment(ref _calls);
        lock (_gate)
        {
            if (call == outageAfterCalls)
            {
                _outageEnds = DateTime.UtcNow + outageLength;
            }

            if (DateTime.UtcNow < _outageEnds)
            {
                throw new HttpRequestException("503 Service Unavailable");
            }
        }

        return Random.Shared.NextDouble() < failureRate ? throw new TimeoutException("the call timed out") : product * 1.5m;
    }
}

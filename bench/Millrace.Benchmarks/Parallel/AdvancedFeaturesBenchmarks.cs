using System.Diagnostics.Metrics;
using BenchmarkDotNet.Attributes;
using Millrace.Parallel;
using Millrace.Parallel.Adaptive;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Metrics;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Polly;
using Polly.CircuitBreaker;

namespace Millrace.Benchmarks.Parallel;

/// <summary>
/// The seed's AdvancedFeatures suite: 500 items of one 2 ms timer wait at 16 at once, with each feature enabled
/// but never triggered (the breaker never opens, the rate limit never makes anyone wait), adaptive concurrency
/// starting at 4 of 16, and a listener attached to the meter for the metrics rows. Its latency does not depend on
/// concurrency, so it cannot show whether adaptive concurrency finds a service's knee; the "Congested service" rows
/// do: 1,600 calls to a service that answers in 10 ms up to 16 concurrent calls and in 10 ms × (c/16)² beyond
/// (throughput peaks at 16), at fixed limits around the knee and with adaptive concurrency from 4 up to 128. Each row
/// prints the calls' mean latency when it ends (BenchmarkDotNet reports the run's time, not the calls').
/// </summary>
[MemoryDiagnoser]
public class AdvancedFeaturesBenchmarks
{
    private const int Count = 500;
    private const int Dop = 16;
    private readonly int[] _items = Enumerable.Range(0, Count).ToArray();
    private readonly ParallelOperatorOptions _none = new() { MaxDegreeOfParallelism = Dop, Metrics = false };
    private readonly ParallelOperatorOptions _breaker = new() { MaxDegreeOfParallelism = Dop, Metrics = false, CircuitBreaker = new CircuitBreakerOptions() };
    private readonly ParallelOperatorOptions _rateLimit = new() { MaxDegreeOfParallelism = Dop, Metrics = false, RateLimit = new RateLimitOptions { PermitsPerPeriod = 1_000_000 } };
    private readonly ParallelOperatorOptions _adaptive = new() { MaxDegreeOfParallelism = Dop, Metrics = false, AdaptiveConcurrency = new AdaptiveConcurrencyOptions() };
    private readonly ParallelOperatorOptions _progress = new() { MaxDegreeOfParallelism = Dop, Metrics = false, Progress = new ProgressOptions { Interval = TimeSpan.FromMilliseconds(100), OnProgress = static _ => { } } };
    private readonly ParallelOperatorOptions _metrics = new() { MaxDegreeOfParallelism = Dop, Metrics = true };
    private readonly ParallelOperatorOptions _all = new()
    {
        MaxDegreeOfParallelism = Dop,
        Metrics = true,
        CircuitBreaker = new CircuitBreakerOptions(),
        RateLimit = new RateLimitOptions { PermitsPerPeriod = 1_000_000 },
        AdaptiveConcurrency = new AdaptiveConcurrencyOptions(),
        Progress = new ProgressOptions { Interval = TimeSpan.FromMilliseconds(100), OnProgress = static _ => { } },
    };

    private readonly ResiliencePipeline _pollyBreaker = new ResiliencePipelineBuilder()
        .AddCircuitBreaker(new CircuitBreakerStrategyOptions())
        .Build();

    private const int CongestedCount = 1_600;
    private const int Knee = 16;
    private readonly int[] _congestedItems = Enumerable.Range(0, CongestedCount).ToArray();
    private readonly ParallelOperatorOptions _adaptiveCongested = new()
    {
        MaxDegreeOfParallelism = 128,
        Metrics = false,
        AdaptiveConcurrency = new AdaptiveConcurrencyOptions(),
    };

    private MeterListener? _listener;
    private long _measurements;
    private int _inService;
    private long _calls;
    private long _latencyTicks;

    [GlobalSetup]
    public void Setup()
    {
        _listener = new MeterListener
        {
            InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == ParallelInstruments.MeterName)
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            },
        };
        _listener.SetMeasurementEventCallback<long>((_, _, _, _) => Interlocked.Increment(ref _measurements));
        _listener.SetMeasurementEventCallback<double>((_, _, _, _) => Interlocked.Increment(ref _measurements));
        _listener.SetMeasurementEventCallback<int>((_, _, _, _) => Interlocked.Increment(ref _measurements));
        _listener.Start();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _listener?.Dispose();
        if (_calls > 0)
        {
            Console.WriteLine($"// Congested service: {_calls} calls, mean latency {TimeSpan.FromTicks(_latencyTicks / _calls).TotalMilliseconds:F2} ms (knee: {CongestedLatency(Knee).TotalMilliseconds:F2} ms)");
        }
    }

    private static TimeSpan CongestedLatency(int concurrency) =>
        TimeSpan.FromMilliseconds(concurrency <= Knee ? 10 : 10.0 * concurrency * concurrency / (Knee * Knee));

    /// <summary>One call to the congested service: its latency follows the calls in flight when it starts.</summary>
    private async ValueTask Congested(int x, CancellationToken ct)
    {
        var concurrency = Interlocked.Increment(ref _inService);
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        try
        {
            await Task.Delay(CongestedLatency(concurrency), ct).ConfigureAwait(false);
        }
        finally
        {
            Interlocked.Decrement(ref _inService);
            Interlocked.Add(ref _latencyTicks, System.Diagnostics.Stopwatch.GetElapsedTime(started).Ticks);
            Interlocked.Increment(ref _calls);
        }
    }

    private Task CongestedAt(int limit) =>
        _congestedItems.ForEachParallelAsync(Congested, new ParallelOperatorOptions { MaxDegreeOfParallelism = limit, Metrics = false });

    private static ValueTask Io(int x, CancellationToken ct) => new(Task.Delay(2, ct));

    [Benchmark(Baseline = true, Description = "No advanced features")]
    public Task None() => _items.ForEachParallelAsync(Io, _none);

    [Benchmark(Description = "With CircuitBreaker")]
    public Task Breaker() => _items.ForEachParallelAsync(Io, _breaker);

    [Benchmark(Description = "With RateLimit (token bucket)")]
    public Task RateLimit() => _items.ForEachParallelAsync(Io, _rateLimit);

    [Benchmark(Description = "With AdaptiveConcurrency (4 → 16)")]
    public Task Adaptive() => _items.ForEachParallelAsync(Io, _adaptive);

    [Benchmark(Description = "With Progress tracking")]
    public Task Progress() => _items.ForEachParallelAsync(Io, _progress);

    [Benchmark(Description = "With Metrics tracking (listener attached)")]
    public Task Metrics() => _items.ForEachParallelAsync(Io, _metrics);

    [Benchmark(Description = "With all features combined")]
    public Task All() => _items.ForEachParallelAsync(Io, _all);

    [Benchmark(Description = "Parallel.ForEachAsync")]
    public Task ParallelForEach() =>
        System.Threading.Tasks.Parallel.ForEachAsync(_items, new ParallelOptions { MaxDegreeOfParallelism = Dop }, static async (x, ct) => await Io(x, ct));

    [Benchmark(Description = "Polly v8 circuit breaker in Parallel.ForEachAsync")]
    public Task PollyBreaker() =>
        System.Threading.Tasks.Parallel.ForEachAsync(
            _items,
            new ParallelOptions { MaxDegreeOfParallelism = Dop },
            async (x, ct) => await _pollyBreaker.ExecuteAsync(static (x, token) => Io(x, token), x, ct));

    [Benchmark(Description = "Congested service, fixed limit 8")]
    public Task Congested8() => CongestedAt(8);

    [Benchmark(Description = "Congested service, fixed limit 16 (the knee)")]
    public Task Congested16() => CongestedAt(16);

    [Benchmark(Description = "Congested service, fixed limit 24")]
    public Task Congested24() => CongestedAt(24);

    [Benchmark(Description = "Congested service, fixed limit 32")]
    public Task Congested32() => CongestedAt(32);

    [Benchmark(Description = "Congested service, AdaptiveConcurrency (4 → 128)")]
    public Task CongestedAdaptive() => _congestedItems.ForEachParallelAsync(Congested, _adaptiveCongested);
}

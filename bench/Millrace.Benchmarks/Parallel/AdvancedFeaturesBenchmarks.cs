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
/// starting at 4 of 16, and a listener attached to the meter for the metrics rows.
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

    private MeterListener? _listener;
    private long _measurements;

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
    public void Cleanup() => _listener?.Dispose();

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
}

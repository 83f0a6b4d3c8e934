using BenchmarkDotNet.Attributes;
using Millrace.Parallel;
using Millrace.Parallel.Retry;
using Polly;
using Polly.Retry;

namespace Millrace.Benchmarks.Parallel;

/// <summary>
/// The seed's ErrorHandling suite: 500 items at 8 at once. Success-path rows do CPU-light work with no failures.
/// Retry rows make every 10th item fail its first two attempts with a transient exception, so 50 items each wait
/// through two backoff delays of a 10 ms base: the theoretical time is 50 × (sum of the two delays) / 8 workers.
/// </summary>
[MemoryDiagnoser]
public class ErrorHandlingBenchmarks
{
    private const int Count = 500;
    private const int Dop = 8;
    private static readonly TimeSpan BaseDelay = TimeSpan.FromMilliseconds(10);
    private readonly int[] _items = Enumerable.Range(0, Count).ToArray();
    private readonly int[] _attempts = new int[Count];
    private readonly ResiliencePipeline _pollyRetry = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 3, Delay = BaseDelay, BackoffType = DelayBackoffType.Constant, UseJitter = false })
        .Build();

    private static ParallelOperatorOptions Options(ErrorMode mode = ErrorMode.FailFast, BackoffType? backoff = null) => new()
    {
        MaxDegreeOfParallelism = Dop,
        Metrics = false,
        ErrorMode = mode,
        Retry = backoff is { } type ? new RetryOptions { MaxRetryAttempts = 3, BackoffType = type, Delay = BaseDelay } : null,
    };

    private readonly ParallelOperatorOptions _noRetries = Options();
    private readonly ParallelOperatorOptions _bestEffort = Options(ErrorMode.BestEffort);
    private readonly ParallelOperatorOptions _collect = Options(ErrorMode.CollectAndContinue);
    private readonly ParallelOperatorOptions _constant = Options(backoff: BackoffType.Constant);
    private readonly ParallelOperatorOptions _exponential = Options(backoff: BackoffType.Exponential);
    private readonly ParallelOperatorOptions _jitter = Options(backoff: BackoffType.ExponentialJitter);
    private readonly ParallelOperatorOptions _decorrelated = Options(backoff: BackoffType.DecorrelatedJitter);

    private ValueTask<int> Flaky(int x, CancellationToken ct) =>
        x % 10 == 0 && Interlocked.Increment(ref _attempts[x]) <= 2
            ? ValueTask.FromException<int>(new TimeoutException("transient"))
            : new ValueTask<int>(x);

    private void Reset() => Array.Clear(_attempts);

    [Benchmark(Baseline = true, Description = "No retries (success), FailFast")]
    public Task<int[]> NoRetries() => _items.SelectParallelAsync(ParallelWork.Light, _noRetries);

    [Benchmark(Description = "ErrorMode.BestEffort (success)")]
    public Task<int[]> BestEffort() => _items.SelectParallelAsync(ParallelWork.Light, _bestEffort);

    [Benchmark(Description = "ErrorMode.CollectAndContinue (success)")]
    public Task<int[]> Collect() => _items.SelectParallelAsync(ParallelWork.Light, _collect);

    [Benchmark(Description = "Parallel.ForEachAsync (success)")]
    public Task ParallelForEach() =>
        System.Threading.Tasks.Parallel.ForEachAsync(_items, new ParallelOptions { MaxDegreeOfParallelism = Dop }, static async (x, ct) => await ParallelWork.Light(x, ct));

    [Benchmark(Description = "Retries, 10% transient, Backoff.Constant")]
    public Task<int[]> RetryConstant()
    {
        Reset();
        return _items.SelectParallelAsync(Flaky, _constant);
    }

    [Benchmark(Description = "Retries, 10% transient, Backoff.Exponential")]
    public Task<int[]> RetryExponential()
    {
        Reset();
        return _items.SelectParallelAsync(Flaky, _exponential);
    }

    [Benchmark(Description = "Retries, 10% transient, Backoff.ExponentialJitter")]
    public Task<int[]> RetryJitter()
    {
        Reset();
        return _items.SelectParallelAsync(Flaky, _jitter);
    }

    [Benchmark(Description = "Retries, 10% transient, Backoff.DecorrelatedJitter")]
    public Task<int[]> RetryDecorrelated()
    {
        Reset();
        return _items.SelectParallelAsync(Flaky, _decorrelated);
    }

    [Benchmark(Description = "Polly v8 retry in Parallel.ForEachAsync, Constant")]
    public Task PollyRetry()
    {
        Reset();
        return System.Threading.Tasks.Parallel.ForEachAsync(
            _items,
            new ParallelOptions { MaxDegreeOfParallelism = Dop },
            async (x, ct) => await _pollyRetry.ExecuteAsync(static async (state, token) => await state.Self.Flaky(state.X, token), (Self: this, X: x), ct));
    }
}

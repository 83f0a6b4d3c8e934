using BenchmarkDotNet.Attributes;
using Millrace.Parallel;

namespace Millrace.Benchmarks.Parallel;

/// <summary>
/// The seed's Batching suite: 5,000 items at 4 at once, where each call (one item, or one batch) costs one
/// 1 ms timer wait, as a round trip to a service that accepts batches would.
/// </summary>
[MemoryDiagnoser]
public class BatchingBenchmarks
{
    private const int Count = 5_000;
    private readonly int[] _items = Enumerable.Range(0, Count).ToArray();
    private readonly ParallelOperatorOptions _options = new() { MaxDegreeOfParallelism = 4, Metrics = false };

    [Params(100, 500, 1000)]
    public int BatchSize { get; set; }

    private static async ValueTask<int> CallWithBatch(IReadOnlyList<int> batch, CancellationToken ct)
    {
        await Task.Delay(1, ct).ConfigureAwait(false);
        return batch.Count;
    }

    [Benchmark(Baseline = true, Description = "Individual items (SelectParallelAsync)")]
    public Task<int[]> Individual() => _items.SelectParallelAsync(static (x, ct) => ParallelWork.DelayAsync(x, 1, ct), _options);

    [Benchmark(Description = "BatchParallelAsync")]
    public Task<int[]> Batch() => _items.BatchParallelAsync(BatchSize, CallWithBatch, _options);

    [Benchmark(Description = "BatchParallelStreamAsync")]
    public async Task<int> BatchStream()
    {
        var total = 0;
        await foreach (var count in _items.BatchParallelStreamAsync(BatchSize, CallWithBatch, _options))
        {
            total += count;
        }

        return total;
    }
}

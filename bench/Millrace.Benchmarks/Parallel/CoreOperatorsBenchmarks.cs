using BenchmarkDotNet.Attributes;
using Millrace.Parallel;

namespace Millrace.Benchmarks.Parallel;

/// <summary>
/// The seed's CoreOperators suite, split in two tables so each has a meaningful baseline. CPU-light: 1,000 items
/// whose work completes synchronously, so the time and allocation above the sequential loop is the operator's
/// overhead. I/O: 1,000 items of one 1 ms timer wait at 32 at once.
/// </summary>
[MemoryDiagnoser]
public class CoreOperatorsCpuBenchmarks
{
    private const int Count = 1_000;
    private const int Dop = 8;
    private readonly int[] _items = Enumerable.Range(0, Count).ToArray();
    private readonly ParallelOperatorOptions _options = new() { MaxDegreeOfParallelism = Dop, Metrics = false };
    private readonly ParallelOperatorOptions _ordered = new() { MaxDegreeOfParallelism = Dop, Ordered = true, Metrics = false };

    [Benchmark(Baseline = true, Description = "Sequential loop")]
    public async Task<int[]> Sequential()
    {
        var results = new int[Count];
        for (var i = 0; i < Count; i++)
        {
            results[i] = await ParallelWork.Light(_items[i], default);
        }

        return results;
    }

    [Benchmark(Description = "Millrace SelectParallelAsync")]
    public Task<int[]> Select() => _items.SelectParallelAsync(ParallelWork.Light, _options);

    [Benchmark(Description = "Millrace SelectParallelAsync (ordered)")]
    public Task<int[]> SelectOrdered() => _items.SelectParallelAsync(ParallelWork.Light, _ordered);

    [Benchmark(Description = "Millrace SelectParallelStreamAsync")]
    public async Task<int> Stream()
    {
        var sum = 0;
        await foreach (var value in _items.SelectParallelStreamAsync(ParallelWork.Light, _options))
        {
            sum += value;
        }

        return sum;
    }

    [Benchmark(Description = "Millrace ForEachParallelAsync")]
    public Task ForEach() => _items.ForEachParallelAsync(static (x, ct) => default, _options);

    [Benchmark(Description = "Parallel.ForEachAsync")]
    public Task ParallelForEach() =>
        System.Threading.Tasks.Parallel.ForEachAsync(_items, new ParallelOptions { MaxDegreeOfParallelism = Dop }, static (x, ct) => default);

    [Benchmark(Description = "Task.WhenAll (unbounded)")]
    public Task<int[]> WhenAll() => Task.WhenAll(_items.Select(x => ParallelWork.Light(x, default).AsTask()));

    [Benchmark(Description = "Dataflow TransformBlock (bounded)")]
    public Task<int> Dataflow() => ParallelWork.DataflowAsync(Count, Dop, static x => ParallelWork.Light(x, default).AsTask());
}

/// <summary>The I/O half of the seed's CoreOperators suite: 1,000 items of one 1 ms timer wait, 32 at once.</summary>
[MemoryDiagnoser]
public class CoreOperatorsIoBenchmarks
{
    private const int Count = 1_000;
    private const int Dop = 32;
    private readonly int[] _items = Enumerable.Range(0, Count).ToArray();
    private readonly ParallelOperatorOptions _options = new() { MaxDegreeOfParallelism = Dop, Metrics = false };
    private readonly ParallelOperatorOptions _ordered = new() { MaxDegreeOfParallelism = Dop, Ordered = true, Metrics = false };

    private static ValueTask<int> Io(int x, CancellationToken ct) => ParallelWork.DelayAsync(x, 1, ct);

    [Benchmark(Baseline = true, Description = "Sequential loop")]
    public async Task<int> Sequential()
    {
        var sum = 0;
        foreach (var item in _items)
        {
            sum += await Io(item, default);
        }

        return sum;
    }

    [Benchmark(Description = "Millrace SelectParallelAsync")]
    public Task<int[]> Select() => _items.SelectParallelAsync(Io, _options);

    [Benchmark(Description = "Millrace SelectParallelAsync (ordered)")]
    public Task<int[]> SelectOrdered() => _items.SelectParallelAsync(Io, _ordered);

    [Benchmark(Description = "Millrace SelectParallelStreamAsync (ordered)")]
    public async Task<int> StreamOrdered()
    {
        var sum = 0;
        await foreach (var value in _items.SelectParallelStreamAsync(Io, _ordered))
        {
            sum += value;
        }

        return sum;
    }

    [Benchmark(Description = "Parallel.ForEachAsync")]
    public Task ParallelForEach() =>
        System.Threading.Tasks.Parallel.ForEachAsync(_items, new ParallelOptions { MaxDegreeOfParallelism = Dop }, static async (x, ct) => await Io(x, ct));

    [Benchmark(Description = "Task.WhenAll (unbounded)")]
    public Task<int[]> WhenAll() => Task.WhenAll(_items.Select(x => Io(x, default).AsTask()));

    [Benchmark(Description = "Dataflow TransformBlock (bounded)")]
    public Task<int> Dataflow() => ParallelWork.DataflowAsync(Count, Dop, static x => Io(x, default).AsTask());
}

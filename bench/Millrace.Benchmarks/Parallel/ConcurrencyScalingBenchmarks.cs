using BenchmarkDotNet.Attributes;
using Millrace.Parallel;

namespace Millrace.Benchmarks.Parallel;

/// <summary>
/// The seed's ConcurrencyScaling suite: 1,000 items of one 1 ms timer wait at 1 to 128 at once, with
/// <c>Parallel.ForEachAsync</c> beside Millrace. The ideal is ceil(1000 / DOP) times one measured wait; the
/// "One Task.Delay(1)" row measures that wait on this machine.
/// </summary>
[MemoryDiagnoser]
public class ConcurrencyScalingBenchmarks
{
    private const int Count = 1_000;
    private readonly int[] _items = Enumerable.Range(0, Count).ToArray();
    private ParallelOperatorOptions _options = ParallelOperatorOptions.Default;

    [Params(1, 2, 4, 8, 16, 32, 64, 128)]
    public int Dop { get; set; }

    [GlobalSetup]
    public void Setup() => _options = new ParallelOperatorOptions { MaxDegreeOfParallelism = Dop, Metrics = false };

    [Benchmark(Baseline = true, Description = "Millrace ForEachParallelAsync")]
    public Task Millrace() => _items.ForEachParallelAsync(static async (x, ct) => await Task.Delay(1, ct), _options);

    [Benchmark(Description = "Parallel.ForEachAsync")]
    public Task ParallelForEach() =>
        System.Threading.Tasks.Parallel.ForEachAsync(_items, new ParallelOptions { MaxDegreeOfParallelism = Dop }, static async (x, ct) => await Task.Delay(1, ct));

    [Benchmark(Description = "One Task.Delay(1)")]
    public Task OneDelay() => Task.Delay(1);
}

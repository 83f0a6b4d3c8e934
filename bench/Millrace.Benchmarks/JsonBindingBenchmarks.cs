using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Millrace.Json.Streaming;

namespace Millrace.Benchmarks;

/// <summary>
/// Issue 16's multi-core binding target: reading every item of a 100 MB array of ~1 KB records, bound to objects, from
/// a file. One scanner finds the items while the other <see cref="JsonStreamOptions.BindingWorkers"/> workers bind them,
/// and binds a batch itself whenever some wait for them; results in order. The baseline is System.Text.Json's
/// streaming read of the same array.
/// </summary>
[MemoryDiagnoser]
public class JsonBindingBenchmarks
{
    private const int BufferSize = 1024 * 1024;

    private string _path = "";

    /// <summary>Gets or sets how many records the array holds (100,000 of about 1 KB: a file of about 100 MB).</summary>
    [Params(100_000)]
    public int RecordCount { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _path = BenchmarkFiles.JsonArray($"millrace-bench-wide-records-{RecordCount}.json", RecordCount, static (writer, i) => JsonSerializer.Serialize(writer, WideRecord.At(i), BenchJsonContext.Default.WideRecord));

        var expected = (long)RecordCount * (RecordCount - 1) / 2;
        if (Stj().GetAwaiter().GetResult() != expected || OneWorker().GetAwaiter().GetResult() != expected || TwoWorkers().GetAwaiter().GetResult() != expected)
        {
            throw new InvalidOperationException("The benchmark methods disagree about the data.");
        }
    }

    [Benchmark(Baseline = true, Description = "STJ DeserializeAsyncEnumerable (all, 1 KB records)")]
    public async Task<long> Stj()
    {
        await using var stream = BenchmarkFiles.OpenRead(_path);
        long sum = 0;
        await foreach (var record in JsonSerializer.DeserializeAsyncEnumerable(stream, BenchJsonContext.Default.WideRecord))
        {
            sum += record!.Id;
        }

        return sum;
    }

    [Benchmark(Description = "Millrace ReadAsync, 1 worker (all, 1 KB records)")]
    public Task<long> OneWorker() => Millrace(1);

    [Benchmark(Description = "Millrace ReadAsync, 2 workers (all, 1 KB records)")]
    public Task<long> TwoWorkers() => Millrace(2);

    private async Task<long> Millrace(int workers)
    {
        await using var stream = BenchmarkFiles.OpenRead(_path);
        long sum = 0;
        var options = new JsonStreamOptions { BufferSize = BufferSize, BindingWorkers = workers };
        await foreach (var item in JsonItems.ReadAsync(stream, BenchJsonContext.Default.WideRecord, options))
        {
            sum += item.Value.Id;
        }

        return sum;
    }
}

using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Millrace.Json.Streaming;

namespace Millrace.Benchmarks;

/// <summary>
/// The streaming seed's table: full materialization against item-by-item streaming, consuming all items or
/// stopping after 10 or 100. Every method reads the same UTF-8 bytes from a fresh MemoryStream.
/// </summary>
[MemoryDiagnoser]
public class StreamingBenchmarks
{
    private byte[] _json = [];

    [Params(100, 1000)]
    public int RecordCount { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _json = JsonSerializer.SerializeToUtf8Bytes(TestRecord.Create(RecordCount), BenchJsonContext.Default.ListTestRecord);
        var expected = RecordCount;
        if (StjFull().GetAwaiter().GetResult() != expected || MillraceFull().GetAwaiter().GetResult() != expected
            || MillraceStreamAll().GetAwaiter().GetResult() != expected || NewtonsoftFull() != expected)
        {
            throw new InvalidOperationException("The benchmark methods disagree about the data.");
        }
    }

    [Benchmark(Baseline = true, Description = "STJ DeserializeAsync<List<T>> (full)")]
    public async Task<int> StjFull()
    {
        var list = await JsonSerializer.DeserializeAsync(new MemoryStream(_json), BenchJsonContext.Default.ListTestRecord);
        return list!.Count;
    }

    [Benchmark(Description = "STJ DeserializeAsyncEnumerable (all)")]
    public async Task<int> StjStreamAll()
    {
        var count = 0;
        await foreach (var item in JsonSerializer.DeserializeAsyncEnumerable(new MemoryStream(_json), BenchJsonContext.Default.TestRecord))
        {
            count += item is null ? 0 : 1;
        }

        return count;
    }

    [Benchmark(Description = "STJ DeserializeAsyncEnumerable (take 100)")]
    public Task<int> StjTake100() => StjTake(100);

    [Benchmark(Description = "STJ DeserializeAsyncEnumerable (take 10)")]
    public Task<int> StjTake10() => StjTake(10);

    [Benchmark(Description = "Millrace ReadListAsync (full)")]
    public async Task<int> MillraceFull()
    {
        var list = await JsonItems.ReadListAsync(new MemoryStream(_json), BenchJsonContext.Default.TestRecord);
        return list.Value.Count;
    }

    [Benchmark(Description = "Millrace ReadAsync (all)")]
    public async Task<int> MillraceStreamAll()
    {
        var count = 0;
        await foreach (var item in JsonItems.ReadAsync(new MemoryStream(_json), BenchJsonContext.Default.TestRecord))
        {
            count += item.IsSuccess ? 1 : 0;
        }

        return count;
    }

    [Benchmark(Description = "Millrace ReadAsync (take 100)")]
    public Task<int> MillraceTake100() => MillraceTake(100);

    [Benchmark(Description = "Millrace ReadAsync (take 10)")]
    public Task<int> MillraceTake10() => MillraceTake(10);

    [Benchmark(Description = "Newtonsoft.Json Deserialize<List<T>> (full)")]
    public int NewtonsoftFull()
    {
        using var reader = new StreamReader(new MemoryStream(_json));
        using var json = new Newtonsoft.Json.JsonTextReader(reader);
        return Newtonsoft.Json.JsonSerializer.CreateDefault().Deserialize<List<TestRecord>>(json)!.Count;
    }

    [Benchmark(Description = "Newtonsoft.Json JsonTextReader (take 10)")]
    public int NewtonsoftTake10()
    {
        using var reader = new StreamReader(new MemoryStream(_json));
        using var json = new Newtonsoft.Json.JsonTextReader(reader);
        var serializer = Newtonsoft.Json.JsonSerializer.CreateDefault();
        var count = 0;
        json.Read();
        while (count < 10 && json.Read() && json.TokenType == Newtonsoft.Json.JsonToken.StartObject)
        {
            count += serializer.Deserialize<TestRecord>(json) is null ? 0 : 1;
        }

        return count;
    }

    private async Task<int> StjTake(int take)
    {
        var count = 0;
        await foreach (var item in JsonSerializer.DeserializeAsyncEnumerable(new MemoryStream(_json), BenchJsonContext.Default.TestRecord))
        {
            if (item is not null && ++count == take)
            {
                break;
            }
        }

        return count;
    }

    private async Task<int> MillraceTake(int take)
    {
        var count = 0;
        await foreach (var item in JsonItems.ReadAsync(new MemoryStream(_json), BenchJsonContext.Default.TestRecord))
        {
            if (item.IsSuccess && ++count == take)
            {
                break;
            }
        }

        return count;
    }
}

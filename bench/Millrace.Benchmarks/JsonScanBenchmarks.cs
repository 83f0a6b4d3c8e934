using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Millrace.Json.Streaming;

namespace Millrace.Benchmarks;

/// <summary>
/// Issue 16's scanning target: counting the items of a large array from a file. The baseline is the fastest a .NET
/// program can find item boundaries: a bare <see cref="Utf8JsonReader"/> loop that skips each item with
/// <see cref="Utf8JsonReader.TrySkip"/> over a 1 MiB buffer. Millrace's raw-item path does the same work with the
/// limits, indices, offsets and errors of its bound path; the bound rows show what binding every item costs.
/// </summary>
[MemoryDiagnoser]
public class JsonScanBenchmarks
{
    private const int BufferSize = 1024 * 1024;

    private string _path = "";

    /// <summary>Gets or sets how many records the array holds (3,000,000 records of about 170 bytes: a file of about 500 MB).</summary>
    [Params(3_000_000)]
    public int RecordCount { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _path = BenchmarkFiles.JsonArray($"millrace-bench-records-{RecordCount}.json", RecordCount, static (writer, i) => JsonSerializer.Serialize(writer, TestRecord.At(i), BenchJsonContext.Default.TestRecord));

        if (ReaderLoop() != RecordCount || MillraceRaw().GetAwaiter().GetResult() != RecordCount)
        {
            throw new InvalidOperationException("The benchmark methods disagree about the data.");
        }
    }

    [Benchmark(Baseline = true, Description = "Utf8JsonReader TrySkip loop (1 MiB buffer)")]
    public long ReaderLoop()
    {
        using var stream = BenchmarkFiles.OpenRead(_path);
        var buffer = new byte[BufferSize];
        var state = default(JsonReaderState);
        var end = 0;
        var finalBlock = false;
        long count = 0;
        while (!finalBlock)
        {
            var read = stream.Read(buffer, end, buffer.Length - end);
            end += read;
            finalBlock = read == 0;
            var reader = new Utf8JsonReader(buffer.AsSpan(0, end), finalBlock, state);
            var committed = 0;
            var committedState = state;
            while (true)
            {
                if (!reader.Read())
                {
                    break;
                }

                if (reader.CurrentDepth == 1 && reader.TokenType is JsonTokenType.StartObject or JsonTokenType.StartArray && !reader.TrySkip())
                {
                    break;
                }

                if (reader.CurrentDepth == 1)
                {
                    count++;
                }

                // Every complete step is a place to resume from: an item cut off by the buffer's end is read again.
                committed = (int)reader.BytesConsumed;
                committedState = reader.CurrentState;
            }

            buffer.AsSpan(committed, end - committed).CopyTo(buffer);
            end -= committed;
            state = committedState;
        }

        return count;
    }

    [Benchmark(Description = "Millrace ReadRawAsync (count)")]
    public async Task<long> MillraceRaw()
    {
        await using var stream = BenchmarkFiles.OpenRead(_path);
        long count = 0;
        await foreach (var item in JsonItems.ReadRawAsync(stream, new JsonStreamOptions { BufferSize = BufferSize }))
        {
            count += item.IsSuccess ? 1 : 0;
        }

        return count;
    }

    [Benchmark(Description = "Millrace ReadAsync<JsonElement> (count)")]
    public async Task<long> MillraceBound()
    {
        await using var stream = BenchmarkFiles.OpenRead(_path);
        long count = 0;
        await foreach (var item in JsonItems.ReadAsync(stream, BenchJsonContext.Default.JsonElement, new JsonStreamOptions { BufferSize = BufferSize }))
        {
            count += item.IsSuccess ? 1 : 0;
        }

        return count;
    }

    [Benchmark(Description = "STJ DeserializeAsyncEnumerable<JsonElement> (count)")]
    public async Task<long> StjBound()
    {
        await using var stream = BenchmarkFiles.OpenRead(_path);
        long count = 0;
        await foreach (var item in JsonSerializer.DeserializeAsyncEnumerable(stream, BenchJsonContext.Default.JsonElement))
        {
            count += item.ValueKind == JsonValueKind.Undefined ? 0 : 1;
        }

        return count;
    }
}

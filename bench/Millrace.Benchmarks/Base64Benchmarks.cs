using System.Text;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Millrace.Json.Base64;

namespace Millrace.Benchmarks;

/// <summary>
/// The base64 seed's table: base64 text to an object with nested lists, small (10 items) and large
/// (100,000 items). The baseline decodes with Convert.FromBase64String and binds from the bytes.
/// </summary>
[MemoryDiagnoser]
public class Base64Benchmarks
{
    private string _base64 = "";
    private byte[] _base64Utf8 = [];
    private byte[] _decoded = [];

    [Params(10, 100_000)]
    public int ListSize { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var json = JsonSerializer.SerializeToUtf8Bytes(ComplexObject.Create(ListSize), BenchJsonContext.Default.ComplexObject);
        _decoded = json;
        _base64 = Convert.ToBase64String(json);
        _base64Utf8 = Encoding.ASCII.GetBytes(_base64);
        if (DirectFromBytes() != ListSize || MillracePooledSpan() != ListSize || RoundTripThroughString() != ListSize
            || MillraceStream().GetAwaiter().GetResult() != ListSize || NewtonsoftThroughString() != ListSize)
        {
            throw new InvalidOperationException("The benchmark methods disagree about the data.");
        }
    }

    [Benchmark(Baseline = true, Description = "DirectFromBytes (Convert.FromBase64String, STJ from bytes)")]
    public int DirectFromBytes()
    {
        var bytes = Convert.FromBase64String(_base64);
        return JsonSerializer.Deserialize(bytes, BenchJsonContext.Default.ComplexObject)!.Items.Count;
    }

    [Benchmark(Description = "RoundTripThroughString (bytes, UTF-8 string, STJ)")]
    public int RoundTripThroughString()
    {
        var text = Encoding.UTF8.GetString(Convert.FromBase64String(_base64));
        return JsonSerializer.Deserialize(text, BenchJsonContext.Default.ComplexObject)!.Items.Count;
    }

    [Benchmark(Description = "Millrace Base64Json.Deserialize (pooled span)")]
    public int MillracePooledSpan() => Base64Json.Deserialize(_base64, BenchJsonContext.Default.ComplexObject).Value.Items.Count;

    [Benchmark(Description = "Millrace Base64Json.DeserializeAsync (stream)")]
    public async Task<int> MillraceStream()
    {
        var result = await Base64Json.DeserializeAsync(new MemoryStream(_base64Utf8), BenchJsonContext.Default.ComplexObject);
        return result.Value.Items.Count;
    }

    /// <summary>Not a way to read base64: the cost of building the object graph alone, which no method can go below.</summary>
    [Benchmark(Description = "Floor: STJ from already-decoded bytes (object graph only)")]
    public int FloorObjectGraphOnly() => JsonSerializer.Deserialize(_decoded, BenchJsonContext.Default.ComplexObject)!.Items.Count;

    [Benchmark(Description = "Newtonsoft.Json through string")]
    public int NewtonsoftThroughString()
    {
        var text = Encoding.UTF8.GetString(Convert.FromBase64String(_base64));
        return Newtonsoft.Json.JsonConvert.DeserializeObject<ComplexObject>(text)!.Items.Count;
    }
}

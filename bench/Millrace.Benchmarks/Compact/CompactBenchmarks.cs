using System.Buffers;
using System.IO.Compression;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using BenchmarkDotNet.Attributes;
using MemoryPack;
using Millrace.Compact;
using Millrace.Compact.Serialization;

namespace Millrace.Benchmarks.Compact;

/// <summary>
/// The seed's structures encoded and decoded by the generated compact serializer and by System.Text.Json (source
/// generated), both into a reused buffer writer. MemoryPack runs beside them; MessagePack is not served by the
/// registry mirror and protobuf-net was served too late to add, so their rows cannot run. The setup measures each case's sizes for the report's size table.
/// </summary>
[MemoryDiagnoser]
public class CompactBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(64 * 1024);
    private Func<IBufferWriter<byte>, int> _compactWrite = null!;
    private Func<ReadOnlyMemory<byte>, object> _compactRead = null!;
    private Func<IBufferWriter<byte>, int> _jsonWrite = null!;
    private Func<byte[], object> _jsonRead = null!;
    private Google.Protobuf.IMessage _proto = null!;
    private Google.Protobuf.MessageParser _protoParser = null!;
    private Func<CompactCompression, CompactZstdDictionary?, int> _frame = null!;
    private byte[] _compact = [];
    private byte[] _json = [];
    private byte[] _protoBytes = [];
    private Action<IBufferWriter<byte>> _memoryPackWrite = null!;
    private Func<byte[], object> _memoryPackRead = null!;
    private byte[] _memoryPack = [];

    [Params("user-full", "user-sparse", "product", "large-50/50", "large-10/50", "users-100")]
    public string Case { get; set; } = "user-full";

    [GlobalSetup]
    public void Setup()
    {
        switch (Case)
        {
            case "user-full":
                Use(CompactBenchmarkData.FullUser(), CompactBenchJsonContext.Default.SeedUser);
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.FullUser()), Proto.User.Parser);
                break;
            case "user-sparse":
                Use(CompactBenchmarkData.SparseUser(), CompactBenchJsonContext.Default.SeedUser);
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.SparseUser()), Proto.User.Parser);
                break;
            case "product":
                Use(CompactBenchmarkData.Product(), CompactBenchJsonContext.Default.SeedProduct);
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.Product()), Proto.Product.Parser);
                break;
            case "large-50/50":
                Use(CompactBenchmarkData.LargeFull(), CompactBenchJsonContext.Default.SeedLarge);
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.LargeFull()), Proto.Large.Parser);
                break;
            case "large-10/50":
                Use(CompactBenchmarkData.LargeSparse(), CompactBenchJsonContext.Default.SeedLarge);
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.LargeSparse()), Proto.Large.Parser);
                break;
            default:
                List<SeedUser> users = [.. Enumerable.Range(0, 100).Select(i => CompactBenchmarkData.FullUser())];
                UseMany(users);
                UseProto(ProtoMapping.ToProto(users), Proto.UserList.Parser);
                break;
        }

        _output.ResetWrittenCount();
        _compactWrite(_output);
        _compact = _output.WrittenSpan.ToArray();
        _output.ResetWrittenCount();
        _jsonWrite(_output);
        _json = _output.WrittenSpan.ToArray();
        _protoBytes = Google.Protobuf.MessageExtensions.ToByteArray(_proto);
        _output.ResetWrittenCount();
        _memoryPackWrite(_output);
        _memoryPack = _output.WrittenSpan.ToArray();
        Sizes = new CompactSizes(
            _json.Length,
            Gzip(_json),
            _protoBytes.Length,
            _memoryPack.Length,
            _compact.Length,
            Frame(CompactCompression.Auto),
            Frame(CompactCompression.Deflate),
            Frame(CompactCompression.Brotli),
            Frame(CompactCompression.Zstd),
            Frame(CompactCompression.Auto, CompactZstdDictionary.Train(CompactBenchmarkData.DictionarySamples(Case))));
    }

    /// <summary>The encoded sizes of the current case, known after <see cref="Setup"/>; the report's size table.</summary>
    public CompactSizes Sizes { get; private set; } = null!;

    [Benchmark(Baseline = true, Description = "STJ (source generated) serialize")]
    public int JsonSerialize()
    {
        _output.ResetWrittenCount();
        return _jsonWrite(_output);
    }

    [Benchmark(Description = "Millrace compact serialize")]
    public int CompactSerialize()
    {
        _output.ResetWrittenCount();
        return _compactWrite(_output);
    }

    [Benchmark(Description = "Google.Protobuf serialize")]
    public int ProtobufSerialize()
    {
        _output.ResetWrittenCount();
        Google.Protobuf.MessageExtensions.WriteTo(_proto, _output);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "MemoryPack serialize")]
    public int MemoryPackSerialize()
    {
        _output.ResetWrittenCount();
        _memoryPackWrite(_output);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "STJ (source generated) deserialize")]
    public object JsonDeserialize() => _jsonRead(_json);

    [Benchmark(Description = "Millrace compact deserialize")]
    public object CompactDeserialize() => _compactRead(_compact);

    [Benchmark(Description = "Google.Protobuf deserialize")]
    public object ProtobufDeserialize() => ProtoMapping.Parse(_protoParser, _protoBytes);

    [Benchmark(Description = "MemoryPack deserialize")]
    public object MemoryPackDeserialize() => _memoryPackRead(_memoryPack);

    private void UseProto(Google.Protobuf.IMessage message, Google.Protobuf.MessageParser parser)
    {
        _proto = message;
        _protoParser = parser;
    }

    private static long Gzip(byte[] bytes)
    {
        using var buffer = new MemoryStream();
        using (var gzip = new GZipStream(buffer, CompressionLevel.SmallestSize, leaveOpen: true))
        {
            gzip.Write(bytes);
        }

        return buffer.Length;
    }

    private void Use<T>(T value, JsonTypeInfo<T> json)
        where T : ICompactSerializable<T>
    {
        var jsonWriter = new Utf8JsonWriter(new ArrayBufferWriter<byte>());
        _compactWrite = output =>
        {
            CompactSerializer.Serialize(value, output);
            return 0;
        };
        _compactRead = bytes => CompactSerializer.Deserialize<T>(bytes)!;
        _jsonWrite = output =>
        {
            jsonWriter.Reset(output);
            JsonSerializer.Serialize(jsonWriter, value, json);
            jsonWriter.Flush();
            return 0;
        };
        _jsonRead = bytes => JsonSerializer.Deserialize(bytes, json)!;
        _memoryPackWrite = output => MemoryPackSerializer.Serialize(output, value);
        _memoryPackRead = bytes => MemoryPackSerializer.Deserialize<T>(bytes)!;
        _frame = (compression, dictionary) =>
        {
            var output = new ArrayBufferWriter<byte>();
            CompactSerializer.Serialize(value, output, compression, dictionary);
            return output.WrittenCount;
        };
    }

    private void UseMany(List<SeedUser> values)
    {
        var jsonWriter = new Utf8JsonWriter(new ArrayBufferWriter<byte>());
        _compactWrite = output =>
        {
            CompactSerializer.SerializeMany(values, output);
            return 0;
        };
        _compactRead = bytes => CompactSerializer.DeserializeMany<SeedUser>(bytes);
        _jsonWrite = output =>
        {
            jsonWriter.Reset(output);
            JsonSerializer.Serialize(jsonWriter, values, CompactBenchJsonContext.Default.ListSeedUser);
            jsonWriter.Flush();
            return 0;
        };
        _jsonRead = bytes => JsonSerializer.Deserialize(bytes, CompactBenchJsonContext.Default.ListSeedUser)!;
        _memoryPackWrite = output => MemoryPackSerializer.Serialize(output, values);
        _memoryPackRead = bytes => MemoryPackSerializer.Deserialize<List<SeedUser>>(bytes)!;
        _frame = (compression, dictionary) =>
        {
            var output = new ArrayBufferWriter<byte>();
            CompactSerializer.SerializeMany(values, output, compression, dictionary);
            return output.WrittenCount;
        };
    }

    private int Frame(CompactCompression compression, CompactZstdDictionary? dictionary = null) => _frame(compression, dictionary);
}

/// <summary>One case's encoded sizes in bytes.</summary>
public sealed record CompactSizes(int Json, long JsonGzip, int Protobuf, int MemoryPack, int Compact, int CompactAuto, int CompactDeflate, int CompactBrotli, int CompactZstd, int CompactAutoWithDictionary);

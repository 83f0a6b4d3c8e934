using System.Buffers;
using System.IO.Compression;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using BenchmarkDotNet.Attributes;
using MemoryPack;
using MessagePack;
using Millrace.Compact;
using Millrace.Compact.Serialization;

namespace Millrace.Benchmarks.Compact;

/// <summary>
/// The seed's structures encoded and decoded by the generated compact serializer and by System.Text.Json (source
/// generated), all into a reused buffer writer, beside the peers a .NET user would pick instead: Google.Protobuf and
/// protobuf-net (explicit field numbers, like ours), MessagePack-CSharp with integer keys (with and without its LZ4
/// compression), and MemoryPack in its default mode (no keys, no evolution) and its version-tolerant mode (the fair
/// peer: it too survives added and removed members). The setup measures each case's sizes for the report's size table.
/// </summary>
[MemoryDiagnoser]
public class CompactBenchmarks
{
    private static readonly JsonSerializerOptions ReflectionJson = new() { TypeInfoResolver = new System.Text.Json.Serialization.Metadata.DefaultJsonTypeInfoResolver() };
    private static readonly MessagePackSerializerOptions MessagePackLz4 = MessagePackSerializerOptions.Standard.WithCompression(MessagePackCompression.Lz4BlockArray);

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
    private Action<IBufferWriter<byte>> _tolerantWrite = null!;
    private Func<byte[], object> _tolerantRead = null!;
    private byte[] _memoryPackTolerant = [];
    private Action<IBufferWriter<byte>, MessagePackSerializerOptions> _messagePackWrite = null!;
    private Func<ReadOnlyMemory<byte>, MessagePackSerializerOptions, object> _messagePackRead = null!;
    private byte[] _messagePack = [];
    private byte[] _messagePackLz4 = [];
    private Action<IBufferWriter<byte>> _protobufNetWrite = null!;
    private Func<ReadOnlyMemory<byte>, object> _protobufNetRead = null!;
    private byte[] _protobufNet = [];
    private Func<object, byte[]> _toJson = null!;
    private object _original = null!;

    static CompactBenchmarks() => ProtobufNetSurrogates.Register();

    [Params("user-full", "user-sparse", "product", "large-50/50", "large-10/50", "users-100")]
    public string Case { get; set; } = "user-full";

    [GlobalSetup]
    public void Setup()
    {
        switch (Case)
        {
            case "user-full":
                Use(CompactBenchmarkData.FullUser(), CompactBenchJsonContext.Default.SeedUser, SeedUserTolerant.From(CompactBenchmarkData.FullUser()));
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.FullUser()), Proto.User.Parser);
                break;
            case "user-sparse":
                Use(CompactBenchmarkData.SparseUser(), CompactBenchJsonContext.Default.SeedUser, SeedUserTolerant.From(CompactBenchmarkData.SparseUser()));
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.SparseUser()), Proto.User.Parser);
                break;
            case "product":
                Use(CompactBenchmarkData.Product(), CompactBenchJsonContext.Default.SeedProduct, SeedProductTolerant.From(CompactBenchmarkData.Product()));
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.Product()), Proto.Product.Parser);
                break;
            case "large-50/50":
                Use(CompactBenchmarkData.LargeFull(), CompactBenchJsonContext.Default.SeedLarge, SeedLargeTolerant.From(CompactBenchmarkData.LargeFull()));
                UseProto(ProtoMapping.ToProto(CompactBenchmarkData.LargeFull()), Proto.Large.Parser);
                break;
            case "large-10/50":
                Use(CompactBenchmarkData.LargeSparse(), CompactBenchJsonContext.Default.SeedLarge, SeedLargeTolerant.From(CompactBenchmarkData.LargeSparse()));
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
        _memoryPackTolerant = Written(_tolerantWrite);
        _messagePack = Written(output => _messagePackWrite(output, MessagePackSerializerOptions.Standard));
        _messagePackLz4 = Written(output => _messagePackWrite(output, MessagePackLz4));
        _protobufNet = Written(_protobufNetWrite);
        CheckEveryPeerGivesTheDataBack();
        Sizes = new CompactSizes(
            _json.Length,
            Gzip(_json),
            _protoBytes.Length,
            _protobufNet.Length,
            _messagePack.Length,
            _messagePackLz4.Length,
            _memoryPack.Length,
            _memoryPackTolerant.Length,
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

    [Benchmark(Description = "MemoryPack (version-tolerant) serialize")]
    public int MemoryPackTolerantSerialize()
    {
        _output.ResetWrittenCount();
        _tolerantWrite(_output);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "MessagePack serialize")]
    public int MessagePackSerialize()
    {
        _output.ResetWrittenCount();
        _messagePackWrite(_output, MessagePackSerializerOptions.Standard);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "MessagePack (LZ4) serialize")]
    public int MessagePackLz4Serialize()
    {
        _output.ResetWrittenCount();
        _messagePackWrite(_output, MessagePackLz4);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "protobuf-net serialize")]
    public int ProtobufNetSerialize()
    {
        _output.ResetWrittenCount();
        _protobufNetWrite(_output);
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

    [Benchmark(Description = "MemoryPack (version-tolerant) deserialize")]
    public object MemoryPackTolerantDeserialize() => _tolerantRead(_memoryPackTolerant);

    [Benchmark(Description = "MessagePack deserialize")]
    public object MessagePackDeserialize() => _messagePackRead(_messagePack, MessagePackSerializerOptions.Standard);

    [Benchmark(Description = "MessagePack (LZ4) deserialize")]
    public object MessagePackLz4Deserialize() => _messagePackRead(_messagePackLz4, MessagePackLz4);

    [Benchmark(Description = "protobuf-net deserialize")]
    public object ProtobufNetDeserialize() => _protobufNetRead(_protobufNet);

    private void CheckEveryPeerGivesTheDataBack()
    {
        var decoded = new (string Peer, object Value)[]
        {
            ("Millrace compact", _compactRead(_compact)),
            ("MemoryPack", _memoryPackRead(_memoryPack)),
            ("MessagePack", _messagePackRead(_messagePack, MessagePackSerializerOptions.Standard)),
            ("MessagePack (LZ4)", _messagePackRead(_messagePackLz4, MessagePackLz4)),
            ("protobuf-net", _protobufNetRead(_protobufNet)),
        };
        foreach (var (peer, value) in decoded)
        {
            if (!_toJson(value).AsSpan().SequenceEqual(_json))
            {
                throw new InvalidOperationException($"{peer} does not give {Case} back.");
            }
        }

        // The twin is a different type: compare it with the original member by member, so a member missing from
        // the twin (it would encode less than every other peer) or a value lost on the way fails the run.
        if (!SameMembers(_original, _tolerantRead(_memoryPackTolerant)))
        {
            throw new InvalidOperationException($"MemoryPack (version-tolerant) does not give {Case} back.");
        }
    }

    private static bool SameMembers(object expected, object actual)
    {
        if (expected is System.Collections.IList expectedItems && actual is System.Collections.IList actualItems)
        {
            return expectedItems.Count == actualItems.Count
                && Enumerable.Range(0, expectedItems.Count).All(i => SameMembers(expectedItems[i]!, actualItems[i]!));
        }

        foreach (var member in expected.GetType().GetProperties(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Instance))
        {
            var twin = actual.GetType().GetProperty(member.Name);
            if (twin is null
                || !JsonSerializer.Serialize(member.GetValue(expected), member.PropertyType, ReflectionJson)
                    .Equals(JsonSerializer.Serialize(twin.GetValue(actual), twin.PropertyType, ReflectionJson), StringComparison.Ordinal))
            {
                return false;
            }
        }

        return true;
    }

    private static byte[] Written(Action<IBufferWriter<byte>> write)
    {
        var output = new ArrayBufferWriter<byte>();
        write(output);
        return output.WrittenSpan.ToArray();
    }

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

    private void Use<T, TTolerant>(T value, JsonTypeInfo<T> json, TTolerant tolerant)
        where T : ICompactSerializable<T>
        where TTolerant : IMemoryPackable<TTolerant>
    {
        UsePeers(value, tolerant);
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
        _toJson = decoded => JsonSerializer.SerializeToUtf8Bytes((T)decoded, json);
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
        UsePeers(values, values.Select(SeedUserTolerant.From).ToList());
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
        _toJson = decoded => JsonSerializer.SerializeToUtf8Bytes((List<SeedUser>)decoded, CompactBenchJsonContext.Default.ListSeedUser);
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

    private void UsePeers<T, TTolerant>(T value, TTolerant tolerant)
    {
        _tolerantWrite = output => MemoryPackSerializer.Serialize(output, tolerant);
        _tolerantRead = bytes => MemoryPackSerializer.Deserialize<TTolerant>(bytes)!;
        _original = value!;
        _messagePackWrite = (output, options) => MessagePackSerializer.Serialize(output, value, options);
        _messagePackRead = (bytes, options) => MessagePackSerializer.Deserialize<T>(bytes, options)!;
        _protobufNetWrite = output => ProtoBuf.Serializer.Serialize(output, value);
        _protobufNetRead = bytes => ProtoBuf.Serializer.Deserialize<T>(bytes)!;
    }
}

/// <summary>One case's encoded sizes in bytes.</summary>
public sealed record CompactSizes(int Json, long JsonGzip, int Protobuf, int ProtobufNet, int MessagePack, int MessagePackLz4, int MemoryPack, int MemoryPackTolerant, int Compact, int CompactAuto, int CompactDeflate, int CompactBrotli, int CompactZstd, int CompactAutoWithDictionary);

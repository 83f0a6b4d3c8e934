using System.Buffers;
using System.Text.Json.Nodes;
using Millrace.Compact.Schema;
using Millrace.Compact.Serialization;
using Millrace.Compact.Wire;

namespace Millrace.Compact.Tests;

/// <summary>
/// The conformance vectors through the generated typed code: <see cref="ConformanceVectorsTests"/> holds the schema-file
/// codec to the vectors; this holds the typed code to the schema-file codec on every vector's frame, with the schema the
/// generator wrote for C# twins of the vectors' types. Both refuse alike (code, offset, path) or both read, and what they
/// read writes back to the same bytes. The twins leave out the vectors' lists of lists, which typed code does not map:
/// both paths then skip those fields alike.
/// </summary>
public class TypedConformanceTests
{
    public static TheoryData<string> Names() => [.. ConformanceVectorsTests.Vectors().Select(v => v["name"]!.GetValue<string>())];

    [Theory]
    [MemberData(nameof(Names))]
    public void EveryVector_IsReadAlike_ByTheTypedCodeAndTheSchemaFileCodec(string name)
    {
        var vector = ConformanceVectorsTests.Vectors().Single(v => v["name"]!.GetValue<string>() == name);
        var frame = Convert.FromHexString(vector["hex"]!.GetValue<string>());
        var limits = ConformanceVectorsTests.LimitsOf(vector);
        var schema = Twins.Value;

        CompactFormatException? jsonError = null;
        string? json = null;
        try
        {
            json = CompactTestSupport.Decode(schema, frame, limits);
        }
        catch (CompactFormatException exception)
        {
            jsonError = exception;
        }

        if (jsonError?.Message.Contains("JSON cannot hold NaN", StringComparison.Ordinal) == true)
        {
            // Typed code keeps NaN and infinities, which JSON cannot: not a disagreement.
            return;
        }

        CompactFormatException? typedError = null;
        byte[]? typed = null;
        try
        {
            typed = ReadAndWriteTyped(frame, limits);
        }
        catch (CompactFormatException exception)
        {
            typedError = exception;
        }

        if (jsonError is not null || typedError is not null)
        {
            Assert.True(jsonError is not null && typedError is not null, $"{name}: JSON {jsonError?.Message ?? "read it"}; typed {typedError?.Message ?? "read it"}");
            Assert.Equal((jsonError!.Code, jsonError.ByteOffset, jsonError.Path), (typedError!.Code, typedError.ByteOffset, typedError.Path));
            return;
        }

        if (typed is null)
        {
            return; // a type id no twin has: both refuse it above
        }

        var isCollection = (frame[1] & 0b100) != 0;
        var typeName = schema.TryGetType(TypeIdOf(frame), out var type) ? type.Name : throw new InvalidOperationException(name);
        var fromJson = CompactTestSupport.Encode(schema, typeName, isCollection ? json! : JsonNode.Parse(json!)!.ToJsonString());
        Assert.Equal(Convert.ToHexString(fromJson), Convert.ToHexString(typed));
    }

    private static readonly Lazy<CompactSchemaSet> Twins = new(() =>
    {
        using var assembly = File.OpenRead(typeof(VItem).Assembly.Location);
        return CompactSchemaSet.FromAssembly(assembly, ["VItem", "VValues", "VDrawing", "VDefaults", "VHolder"]);
    });

    private static int TypeIdOf(byte[] frame) => frame.Length > 2 && frame[2] < 0x80 ? frame[2] : -1;

    // Reads the frame with the typed code of its type id and writes what it read, uncompressed; null for an id no twin has.
    private static byte[]? ReadAndWriteTyped(byte[] frame, CompactLimits? limits) => TypeIdOf(frame) switch
    {
        5 => RoundTrip<VItem>(frame, limits),
        20 => RoundTrip<VValues>(frame, limits),
        21 => RoundTrip<VCircle>(frame, limits),
        22 => RoundTrip<VSquare>(frame, limits),
        23 => RoundTrip<VShape>(frame, limits),
        24 => RoundTrip<VDrawing>(frame, limits),
        25 => RoundTrip<VDefaults>(frame, limits),
        26 => RoundTrip<VAccount>(frame, limits),
        27 => RoundTrip<VHolder>(frame, limits),
        28 => RoundTrip<VKeeper>(frame, limits),
        _ => Typed<VItem>(frame, limits),
    };

    // A frame whose header the typed reader refuses before it knows the type (a bad version, flags or id).
    private static byte[]? Typed<T>(byte[] frame, CompactLimits? limits)
        where T : ICompactSerializable<T>
    {
        CompactSerializer.Deserialize<T>(frame, limits);
        return null;
    }

    private static byte[] RoundTrip<T>(byte[] frame, CompactLimits? limits)
        where T : ICompactSerializable<T>
    {
        var output = new ArrayBufferWriter<byte>();
        if (frame.Length > 1 && (frame[1] & 0b100) != 0)
        {
            CompactSerializer.SerializeMany(CompactSerializer.DeserializeMany<T>(frame, limits), output);
        }
        else
        {
            CompactSerializer.Serialize(CompactSerializer.Deserialize<T>(frame, limits), output);
        }

        return output.WrittenSpan.ToArray();
    }
}

[CompactSchema(5)]
[ReservedFields(12)]
public partial class VItem
{
    [Field(1)] public ulong? Count { get; set; }

    [Field(2)] public string? Name { get; set; }

    [Field(3)] public List<string>? Tags { get; set; }

    [Field(4)] public int? Delta { get; set; }

    [Field(5, Encoding = IntegerEncoding.TwosComplement)] public long? Id { get; set; }

    [Field(6)] public bool? Ok { get; set; }

    [Field(7)] public double? Ratio { get; set; }

    [Field(8)] public byte[]? Data { get; set; }

    [Field(9)] public Dictionary<string, int>? Scores { get; set; }

    [Field(10)] public VItem? Parent { get; set; }

    [Field(11)] public uint? Small { get; set; }
}

[CompactSchema(20)]
public partial class VValues
{
    [Field(1)] public float? F32 { get; set; }

    [Field(2)] public decimal? Amount { get; set; }

    [Field(3)] public Guid? Uid { get; set; }

    [Field(4)] public DateTimeOffset? At { get; set; }

    [Field(5)] public TimeSpan? Took { get; set; }

    [Field(7)] public List<float>? F32s { get; set; }

    [Field(8)] public List<double>? F64s { get; set; }

    [Field(10)] public long? N64 { get; set; }

    [Field(11, Encoding = IntegerEncoding.TwosComplement)] public int? T32 { get; set; }

    [Field(12, Encoding = IntegerEncoding.TwosComplement)] public List<int>? T32s { get; set; }

    [Field(13, Encoding = IntegerEncoding.TwosComplement)] public Dictionary<string, int>? T32map { get; set; }
}

[CompactSchema(23)]
[CompactUnion(1, typeof(VCircle))]
[CompactUnion(2, typeof(VSquare))]
public abstract partial class VShape;

[CompactSchema(21)]
public partial class VCircle : VShape
{
    [Field(1)] public double? Radius { get; set; }
}

[CompactSchema(22)]
public partial class VSquare : VShape
{
    [Field(1)] public double? Side { get; set; }

    [Field(2)] public string? Label { get; set; }
}

[CompactSchema(24)]
public partial class VDrawing
{
    [Field(1)] public VShape? Shape { get; set; }

    [Field(2)] public List<VShape>? Shapes { get; set; }
}

[CompactSchema(25)]
public partial class VDefaults
{
    [Field(1, OmitDefault = true)] public bool Flag { get; set; }

    [Field(2, OmitDefault = true)] public int Number { get; set; }

    [Field(3, OmitDefault = true)] public ulong Big { get; set; }

    [Field(4, OmitDefault = true)] public float F32 { get; set; }

    [Field(5, OmitDefault = true)] public double F64 { get; set; }

    [Field(6, OmitDefault = true)] public decimal Amount { get; set; }

    [Field(7, OmitDefault = true)] public string Text { get; set; } = "";

    [Field(8, OmitDefault = true)] public byte[] Blob { get; set; } = [];

    [Field(9, OmitDefault = true)] public Guid Uid { get; set; }

    [Field(10, OmitDefault = true)] public DateTimeOffset At { get; set; }

    [Field(11, OmitDefault = true)] public TimeSpan Span { get; set; }

    [Field(12, OmitDefault = true)] public List<int> List { get; set; } = [];

    [Field(13, OmitDefault = true)] public Dictionary<string, int> Map { get; set; } = [];

    [Field(14, OmitDefault = true, Encoding = IntegerEncoding.TwosComplement)] public long Id { get; set; }
}

[CompactSchema(26)]
public partial class VAccount
{
    [Field(1)] public required long Id { get; set; }

    [Field(2)] public string? Name { get; set; }

    [Field(3, OmitDefault = true)] public required bool Active { get; set; }
}

[CompactSchema(28)]
public partial class VKeeper
{
    [Field(1)] public string? Name { get; set; }

    [Field(2)] public int? N { get; set; }

    [UnknownFields] public CompactUnknownFields? Unknown { get; set; }
}

[CompactSchema(27)]
public partial class VHolder
{
    [Field(1)] public VAccount? Account { get; set; }

    [Field(2)] public List<VAccount>? Accounts { get; set; }

    [Field(3)] public Dictionary<string, VAccount>? ByName { get; set; }

    [Field(4)] public VKeeper? Keeper { get; set; }
}

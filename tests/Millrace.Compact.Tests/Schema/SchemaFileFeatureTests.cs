using System.Buffers;
using Millrace.Compact.Schema;
using Millrace.Compact.Serialization;

namespace Millrace.Compact.Tests.Schema;

[CompactSchema(40)]
public partial class Defaults
{
    [Field(1, OmitDefault = true)] public double Ratio { get; set; } = 0.5;

    [Field(2, OmitDefault = true)] public decimal Price { get; set; } = 1m;

    [Field(3, OmitDefault = true)] public DateTime When { get; set; } = new(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    [Field(4, OmitDefault = true)] public TimeSpan Took { get; set; } = TimeSpan.FromSeconds(1);

    [Field(5, OmitDefault = true)] public Guid Key { get; set; } = Guid.AllBitsSet;

    [Field(6, OmitDefault = true)] public string Name { get; set; } = "initial";

    [Field(7, OmitDefault = true)] public List<int> Numbers { get; set; } = [1];

    [Field(8, OmitDefault = true)] public float Scale { get; set; } = 2f;
}

/// <summary>The schema file's forms for every feature the attributes have (unions, OmitDefault, required fields, kept
/// unknown fields), checked against the generated code: the schema the generator writes into this assembly, read back,
/// makes the JSON codec write the bytes the typed serializer writes.</summary>
public class SchemaFileFeatureTests
{
    private static CompactSchemaSet FromThisAssembly(params string[] types)
    {
        using var assembly = File.OpenRead(typeof(Defaults).Assembly.Location);
        return CompactSchemaSet.FromAssembly(assembly, types);
    }

    private static byte[] Serialize<T>(T value)
        where T : ICompactSerializable<T>
    {
        var output = new ArrayBufferWriter<byte>();
        CompactSerializer.Serialize(value, output);
        return output.WrittenSpan.ToArray();
    }

    // The JSON path decodes the typed bytes and encodes its JSON back to the same bytes.
    private static string AgreesWithTyped<T>(T value, params string[] types)
        where T : ICompactSerializable<T>
    {
        var schema = FromThisAssembly(types);
        var typed = Serialize(value);
        var json = CompactTestSupport.Decode(schema, typed);
        Assert.Equal(Convert.ToHexString(typed), Convert.ToHexString(CompactTestSupport.Encode(schema, typeof(T).Name, json)));
        return json;
    }

    [Fact]
    public void TheGeneratedSchema_ReadsBack_AndWritesAFileThatParsesToTheSameFile()
    {
        var schema = FromThisAssembly("Drawing", "Settings", "Everything", "Defaults");
        Assert.Equal(["Circle", "Defaults", "Drawing", "Everything", "Settings", "Shape", "Square"], schema.Types.Select(t => t.Name).Order());
        Assert.Equal(schema.ToJson(), CompactSchemaSet.Parse(schema.ToJson()).ToJson());
        Assert.Contains("""{ "name": "Text", "index": 12, "type": "string", "required": true }""", schema.ToJson(), StringComparison.Ordinal);
        Assert.Contains("""{ "tag": 2, "type": "Square" }""", schema.ToJson(), StringComparison.Ordinal);
        Assert.Throws<KeyNotFoundException>(() => FromThisAssembly("NoSuchType"));
    }

    [Fact]
    public void Unions_InAFieldAndInAList_ReadAndWriteAsTheTypedCodeDoes()
    {
        var json = AgreesWithTyped(new Drawing { Main = new Circle { Radius = 2 }, Shapes = [new Square { Side = 3, Label = "a" }, new Circle { Radius = 1 }] }, "Drawing");
        Assert.Equal("""{"Main":{"Circle":{"Radius":2}},"Shapes":[{"Square":{"Side":3,"Label":"a"}},{"Circle":{"Radius":1}}]}""", json);
    }

    [Fact]
    public void EveryMemberType_AndARequiredField_ReadAndWriteAsTheTypedCodeDoes()
    {
        AgreesWithTyped(
            new Everything
            {
                I8 = -5, I16 = 300, I32 = -70000, I64 = long.MinValue, U8 = 200, U16 = 60000, U32 = uint.MaxValue, U64 = ulong.MaxValue,
                F32 = 1.5f, F64 = -0.0, Money = -12.340m, Text = "héllo", Blob = [1, 2], Memory = new byte[] { 3 }, Key = Guid.NewGuid(),
                When = new DateTime(1969, 7, 20, 20, 17, 0, DateTimeKind.Utc), At = DateTimeOffset.UnixEpoch.AddTicks(1), Took = TimeSpan.FromTicks(-1),
                Plan = (Plan)1, Maybe = 0, Numbers = [1, -1], Scores = new() { ["a"] = 0.25 },
            },
            "Everything");
    }

    [Fact]
    public void ARequiredField_Missing_IsRefused_ByBothPaths_AsMissingField()
    {
        var schema = FromThisAssembly("Everything");
        var typed = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Everything>(new byte[] { 1, 0, 3, 0x04, 0x02 }));
        var json = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(schema, [1, 0, 3, 0x04, 0x02]));
        var encode = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Encode(schema, "Everything", """{"I8":1}"""));
        foreach (var error in new[] { typed, json, encode })
        {
            Assert.Equal(CompactErrorCodes.MissingField, error.Code);
            Assert.Equal("Text", error.Path);
        }

        Assert.Equal(2L, typed.ByteOffset);
        Assert.Equal(2L, json.ByteOffset);
    }

    [Fact]
    public void OmitDefault_LeavesOutOnlyTheValueWhoseEncodingIsZero_AndReadsItBackAbsentAsThatDefault()
    {
        // Each member holds its type's default: none is written, and each reads back as that default, not its initializer.
        var zero = new Defaults { Ratio = 0, Price = 0m, When = DateTime.UnixEpoch, Took = TimeSpan.Zero, Key = Guid.Empty, Name = "", Numbers = [], Scale = 0 };
        Assert.Equal("010028", Convert.ToHexString(Serialize(zero)));
        var read = CompactSerializer.Deserialize<Defaults>(Serialize(zero));
        Assert.Equivalent(zero, read, strict: true);
        Assert.Equal(DateTimeKind.Utc, read.When.Kind);

        // Values equal to the default but encoded otherwise are written and read back as they were.
        var near = new Defaults { Ratio = -0.0, Price = 0.00m, When = default, Took = TimeSpan.FromTicks(1), Key = Guid.Empty, Name = "", Numbers = [], Scale = -0f };
        var back = CompactSerializer.Deserialize<Defaults>(Serialize(near));
        Assert.True(double.IsNegative(back.Ratio));
        Assert.Equal("0.00", back.Price.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(DateTime.MinValue, back.When);
        Assert.True(float.IsNegative(back.Scale));

        var json = AgreesWithTyped(zero, "Defaults");
        Assert.Equal("""{"Ratio":0,"Price":0,"When":"1970-01-01T00:00:00+00:00","Took":"00:00:00","Key":"00000000-0000-0000-0000-000000000000","Name":"","Numbers":[],"Scale":0}""", json);
        AgreesWithTyped(near, "Defaults");
    }

    [Fact]
    public void KeptUnknownFields_AreGivenAsDollarUnknown_AndWrittenBackAfterTheRecordsOwn()
    {
        var newer = Serialize(new Newer.Profile { Id = 7, Name = "Ann", Roles = ["a"] });
        var schema = CompactSchemaSet.Parse("""{"types":[{"name":"Profile","id":30,"fields":[{"name":"id","index":1,"type":"int64"}],"unknownFields":"retain"}]}""");
        Assert.Equal(Convert.ToHexString(newer), Convert.ToHexString(Serialize(CompactSerializer.Deserialize<Older.Profile>(newer))));
        var json = CompactTestSupport.Decode(schema, newer);
        Assert.Equal($$"""{"id":7,"$unknown":"{{Convert.ToBase64String(newer[5..])}}"}""", json);
        Assert.Equal(Convert.ToHexString(newer), Convert.ToHexString(CompactTestSupport.Encode(schema, "Profile", json)));

        var known = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Encode(schema, "Profile", """{"$unknown":"BA4="}"""));
        Assert.Equal(CompactErrorCodes.Schema, known.Code);
        Assert.Contains("hold field 1", known.Message, StringComparison.Ordinal);
        var notBase64 = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Encode(schema, "Profile", """{"$unknown":7}"""));
        Assert.Equal("$unknown", notBase64.Path);
    }

    [Theory]
    [InlineData("01 00 14", "compact.bad-value", 0)] // a union value with no case
    [InlineData("01 00 14 1F 01 00", "compact.bad-value", 0)] // tag 7: no such case
    [InlineData("01 00 14 07 09 06 00 00 00 00 00 00 00 00 07 00", "compact.repeated", 11)] // a second case
    public void AUnionValue_HoldsExactlyOneKnownCase_OnBothPaths(string hex, string code, int offset)
    {
        var frame = Convert.FromHexString(hex.Replace(" ", string.Empty, StringComparison.Ordinal));
        var typed = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Shape>(frame));
        var json = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(FromThisAssembly("Shape"), frame));
        Assert.Equal((code, (long)offset), (typed.Code, typed.ByteOffset));
        Assert.Equal((code, (long)offset), (json.Code, json.ByteOffset));
    }

    [Fact]
    public void ARecordField_HasNoDefaultToOmit_HoweverTheSchemaIsMade()
    {
        Assert.Throws<ArgumentException>(() => new CompactField("b", 1, CompactFieldType.Parse("A")) { OmitDefault = true });
        Assert.True(new CompactField("b", 1, CompactFieldType.Parse("list<A>")) { OmitDefault = true }.OmitDefault);
    }

    [Fact]
    public void ANullListElement_IsRefusedOnWrite_NotWrittenAsSomethingElse()
    {
        var error = Assert.Throws<ArgumentException>(() => Serialize(new Drawing { Shapes = [null!] }));
        Assert.Contains("Shapes", error.Message, StringComparison.Ordinal);
    }

    public static TheoryData<string, string, string, bool, bool> Changes() => new()
    {
        // what, old text, new text, breaks backward, breaks forward
        { "union case added", """{"tag":2,"type":"B"}""", """{"tag":2,"type":"B"},{"tag":3,"type":"C"}""", false, true },
        { "union case removed, tag reserved", """{"tag":1,"type":"A"},{"tag":2,"type":"B"}]""", """{"tag":1,"type":"A"}],"reserved":[2]""", true, false },
        { "union case removed", """,{"tag":2,"type":"B"}""", string.Empty, true, true },
        { "union case renumbered", """{"tag":2,"type":"B"}""", """{"tag":3,"type":"B"}""", true, true },
        { "union case to another record", """{"tag":2,"type":"B"}""", """{"tag":2,"type":"C"}""", true, true },
        { "record became a union", """{"name":"C","id":4,"fields":[]}""", """{"name":"C","id":4,"cases":[{"tag":1,"type":"A"}]}""", true, true },
        { "required field added", """{"name":"x","index":1,"type":"int32"}""", """{"name":"x","index":1,"type":"int32"},{"name":"y","index":2,"type":"string","required":true}""", true, false },
        { "field made required", """{"name":"x","index":1,"type":"int32"}""", """{"name":"x","index":1,"type":"int32","required":true}""", true, false },
        { "required field added that omits its default", """{"name":"x","index":1,"type":"int32"}""", """{"name":"x","index":1,"type":"int32"},{"name":"y","index":2,"type":"string","required":true,"omitDefault":true}""", false, false },
        { "omitDefault turned on", """{"name":"x","index":1,"type":"int32"}""", """{"name":"x","index":1,"type":"int32","omitDefault":true}""", false, true },
        { "unknown fields kept", "\"fields\":[{\"name\":\"x\",\"index\":1,\"type\":\"int32\"}]", "\"fields\":[{\"name\":\"x\",\"index\":1,\"type\":\"int32\"}],\"unknownFields\":\"retain\"", false, false },
    };

    [Theory]
    [InlineData("a required field removed, its index reserved", """{"name":"x","index":1,"type":"int32","required":true}],"reserved":[2]""", """],"reserved":[1,2]""", false, true)]
    [InlineData("a required field made optional", """{"name":"x","index":1,"type":"int32","required":true}""", """{"name":"x","index":1,"type":"int32"}""", false, true)]
    [InlineData("a type's id moved and another type given the old one", """{"name":"A","id":2,"fields":[]},{"name":"B","id":3""", """{"name":"A","id":3,"fields":[]},{"name":"B","id":2""", true, true)]
    public void RequiredFieldsAndMovedIds_BreakTheReadersTheyBreak(string what, string before, string after, bool backward, bool forward)
    {
        const string Old = """{"types":[{"name":"A","id":2,"fields":[]},{"name":"B","id":3,"fields":[{"name":"x","index":1,"type":"int32","required":true}],"reserved":[2]}]}""";
        var changed = Old.Replace(before, after, StringComparison.Ordinal);
        Assert.NotEqual(Old, changed);
        var changes = CompactSchemaComparison.Compare(CompactSchemaSet.Parse(Old), CompactSchemaSet.Parse(changed));
        Assert.True((backward, forward) == (changes.Any(c => c.BreaksBackward), changes.Any(c => c.BreaksForward)), $"{what}: {string.Join("; ", changes)}");
        Assert.DoesNotContain(changes, c => c.Description.StartsWith("type renamed", StringComparison.Ordinal));
    }

    [Theory]
    [MemberData(nameof(Changes))]
    public void UnionAndFieldOptionChanges_AreListed_WithTheReadersTheyBreak(string what, string before, string after, bool backward, bool forward)
    {
        const string Old = """{"types":[{"name":"U","id":1,"cases":[{"tag":1,"type":"A"},{"tag":2,"type":"B"}]},{"name":"A","id":2,"fields":[{"name":"x","index":1,"type":"int32"}]},{"name":"B","id":3,"fields":[]},{"name":"C","id":4,"fields":[]}]}""";
        var changed = Old.Replace(before, after, StringComparison.Ordinal);
        Assert.NotEqual(Old, changed);
        var changes = CompactSchemaComparison.Compare(CompactSchemaSet.Parse(Old), CompactSchemaSet.Parse(changed));
        Assert.NotEmpty(changes);
        Assert.True((backward, forward) == (changes.Any(c => c.BreaksBackward), changes.Any(c => c.BreaksForward)), $"{what}: {string.Join("; ", changes)}");
    }
}

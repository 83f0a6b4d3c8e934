using Microsoft.CodeAnalysis;
using Millrace.Compact.Generator;

namespace Millrace.Generators.Tests;

public class CompactGeneratorTests
{
    private static (IReadOnlyList<Diagnostic> Generator, IReadOnlyList<Diagnostic> Compilation) Run(string source) =>
        GeneratorHarness.Run(new CompactSchemaGenerator(), "using Millrace.Compact.Serialization;\nnamespace Probe;\n" + source);

    [Fact]
    public void ValidTypes_GenerateCodeThatCompiles()
    {
        var (generator, compilation) = Run("""
            public enum Level : byte { Low, High }
            [CompactSchema(2)] public partial record Tag { [Field(1)] public string Name { get; init; } = ""; }
            [CompactSchema(1)] [ReservedFields(3)]
            public partial class User
            {
                [Field(1)] public long Id { get; set; }
                [Field(2)] public required string Name { get; init; }
                [Field(4)] public int? Age { get; set; }
                [Field(5)] public Level Level { get; set; }
                [Field(6)] public System.Collections.Generic.List<Tag> Tags { get; set; } = new();
                [Field(7)] public System.Collections.Generic.Dictionary<string, double> Scores { get; set; } = new();
                [Field(8)] public byte[]? Avatar { get; set; }
                [Field(9)] public System.Guid Key { get; set; }
                [Field(10)] public System.DateTimeOffset Created { get; set; }
                [Field(11)] public decimal Balance { get; set; }
                [Field(12)] public ushort[] Ports { get; set; } = System.Array.Empty<ushort>();
                [Field(13, OmitDefault = true)] public int Retries { get; set; }
                [Field(15, Encoding = Millrace.Compact.Wire.IntegerEncoding.TwosComplement)] public System.Collections.Generic.List<long>? Ids { get; set; }
                [UnknownFields] public CompactUnknownFields? Unknown { get; set; }
                [Field(14)] public Shape? Shape { get; set; }
            }
            [CompactSchema(3)] [CompactUnion(1, typeof(Circle))] public abstract partial class Shape { }
            [CompactSchema(4)] public partial class Circle : Shape { [Field(1)] public double R { get; set; } }
            """);
        Assert.Empty(generator);
        Assert.Empty(compilation);
    }

    [Theory]
    [InlineData("[CompactSchema(1)] public class P { [Field(1)] public int X { get; set; } }", "MRCMP001")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(0)] public int X { get; set; } }", "MRCMP002")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(1)] public int X { get; set; } [Field(1)] public int Y { get; set; } }", "MRCMP003")]
    [InlineData("[CompactSchema(1)] [ReservedFields(2, 3)] public partial class P { [Field(3)] public int X { get; set; } }", "MRCMP004")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(1)] public System.Uri? X { get; set; } }", "MRCMP005")]
    [InlineData("public partial class Outer { [CompactSchema(1)] public partial class P { } }", "MRCMP006")]
    [InlineData("[CompactSchema(1)] [CompactUnion(1, typeof(A))] [CompactUnion(1, typeof(B))] public abstract partial class P { } [CompactSchema(2)] public partial class A : P { } [CompactSchema(3)] public partial class B : P { }", "MRCMP003")]
    [InlineData("[CompactSchema(1)] public partial class P { public P(int x) { } }", "MRCMP007")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(1, Encoding = Millrace.Compact.Wire.IntegerEncoding.TwosComplement)] public string? X { get; set; } }", "MRCMP008")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(1, Encoding = Millrace.Compact.Wire.IntegerEncoding.TwosComplement)] public ulong X { get; set; } }", "MRCMP008")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(1, Encoding = (Millrace.Compact.Wire.IntegerEncoding)7)] public long X { get; set; } }", "MRCMP008")]
    [InlineData("public enum U : uint { A } [CompactSchema(1)] public partial class P { [Field(1, Encoding = Millrace.Compact.Wire.IntegerEncoding.TwosComplement)] public U X { get; set; } }", "MRCMP008")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(1, OmitDefault = true)] public int? X { get; set; } }", "MRCMP009")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(1, OmitDefault = true)] public string? X { get; set; } }", "MRCMP009")]
    [InlineData("#nullable disable\n[CompactSchema(1)] public partial class P { [Field(1, OmitDefault = true)] public string X { get; set; } }", "MRCMP009")]
    [InlineData("[CompactSchema(1)] public partial class P { [Field(1, OmitDefault = true)] public Q X { get; set; } = new(); } [CompactSchema(2)] public partial class Q { }", "MRCMP009")]
    public void InvalidSchemas_AreCompileErrors(string declaration, string id)
    {
        var (generator, _) = Run(declaration);
        var diagnostic = Assert.Single(generator);
        Assert.Equal(id, diagnostic.Id);
        Assert.Equal(DiagnosticSeverity.Error, diagnostic.Severity);
    }

    private const string Committed = """
        {"types":[
          {"name":"User","id":1,"fields":[{"name":"Id","index":1,"type":"int64"},{"name":"Name","index":2,"type":"string"},{"name":"Shape","index":3,"type":"Shape"}],"reserved":[5]},
          {"name":"Shape","id":2,"cases":[{"tag":1,"type":"Circle"}]},
          {"name":"Circle","id":3,"fields":[{"name":"R","index":1,"type":"float64"}]}
        ]}
        """;

    private static string Code(string user, string shape = "[CompactUnion(1, typeof(Circle))]") => $$"""
        [CompactSchema(1)] [ReservedFields(5)] public partial class User { {{user}} }
        [CompactSchema(2)] {{shape}} public abstract partial class Shape { }
        [CompactSchema(3)] public partial class Circle : Shape { [Field(1)] public double R { get; set; } }
        [CompactSchema(4)] public partial class Square : Shape { [Field(1)] public double Side { get; set; } }
        """;

    private const string Same = "[Field(1)] public long Id { get; set; } [Field(2)] public string Name { get; set; } = \"\"; [Field(3)] public Shape? Shape { get; set; }";

    public static TheoryData<string, string, string, string?> CommittedChanges() => new()
    {
        // what, the User members, the Shape attributes, the diagnostic's text (null: none)
        { "unchanged", Same, "[CompactUnion(1, typeof(Circle))]", null },
        { "a field added and one renamed", Same.Replace("Name", "FullName", StringComparison.Ordinal) + " [Field(4)] public int Age { get; set; }", "[CompactUnion(1, typeof(Circle))]", null },
        { "a field's type changed", Same.Replace("long Id", "string Id", StringComparison.Ordinal).Replace("public string Id { get; set; }", "public string Id { get; set; } = \"\";", StringComparison.Ordinal), "[CompactUnion(1, typeof(Circle))]", "User.Id [1]: type changed from int64 to string" },
        { "a field removed without reserving its index", "[Field(1)] public long Id { get; set; } [Field(3)] public Shape? Shape { get; set; }", "[CompactUnion(1, typeof(Circle))]", "User.Name [2]: field Name removed without reserving its index" },
        { "a union case added", Same, "[CompactUnion(1, typeof(Circle))] [CompactUnion(2, typeof(Square))]", "Shape.Square [tag 2]: case Square added" },
        { "a union case moved", Same, "[CompactUnion(2, typeof(Circle))]", "Shape.Circle [tag 1]: case Circle removed" },
    };

    [Theory]
    [MemberData(nameof(CommittedChanges))]
    public void ATypeChecked_AgainstItsCommittedSchema_FailsTheBuildOnABreakingChange(string what, string user, string shape, string? expected)
    {
        var (generator, _) = GeneratorHarness.Run(new CompactSchemaGenerator(), "using Millrace.Compact.Serialization;\nnamespace Probe;\n" + Code(user, shape), [("schema/probe.compact.json", Committed)], new Dictionary<string, string>());
        if (expected is null)
        {
            Assert.True(generator.Count == 0, $"{what}: {string.Join("; ", generator)}");
            return;
        }

        Assert.All(generator, d => Assert.Equal(("MRCMP010", DiagnosticSeverity.Error), (d.Id, d.Severity)));
        var diagnostic = Assert.Single(generator, d => d.GetMessage(System.Globalization.CultureInfo.InvariantCulture).Contains(expected, StringComparison.Ordinal));
        Assert.Contains("breaks the schema committed in probe.compact.json: ", diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

    [Fact]
    public void TheCompatibilityProperty_ChoosesTheReadersTheCheckProtects()
    {
        var added = Code(Same, "[CompactUnion(1, typeof(Circle))] [CompactUnion(2, typeof(Square))]");
        var source = "using Millrace.Compact.Serialization;\nnamespace Probe;\n" + added;
        var files = new[] { ("probe.compact.json", Committed) };

        // A case added breaks only old readers of new data: forward, not backward.
        Assert.Empty(GeneratorHarness.Run(new CompactSchemaGenerator(), source, files, new Dictionary<string, string> { ["MillraceCompactCompatibility"] = "backward" }).Generator);
        Assert.Single(GeneratorHarness.Run(new CompactSchemaGenerator(), source, files, new Dictionary<string, string> { ["MillraceCompactCompatibility"] = "forward" }).Generator);
    }

    [Fact]
    public void ACommittedSchemaThatCannotBeRead_IsABuildError()
    {
        var (generator, _) = GeneratorHarness.Run(new CompactSchemaGenerator(), "namespace Probe;", [("bad.compact.json", """{"types":[{"name":"A","id":1,"fields":[],"extra":1}]}""")], new Dictionary<string, string>());
        var diagnostic = Assert.Single(generator);
        Assert.Equal("MRCMP011", diagnostic.Id);
        Assert.Contains("unknown member 'extra'", diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

    [Fact]
    public void ATypeTheCodeNoLongerHas_BreaksItsCommittedSchema_ReportedAtTheFile()
    {
        var committed = Committed.Replace("""{"name":"Circle","id":3,""", """{"name":"Gone","id":9,"fields":[]},{"name":"Circle","id":3,""", StringComparison.Ordinal);
        var source = "using Millrace.Compact.Serialization;\nnamespace Probe;\n" + Code(Same);
        var diagnostic = Assert.Single(GeneratorHarness.Run(new CompactSchemaGenerator(), source, [("probe.compact.json", committed)], new Dictionary<string, string>()).Generator);
        Assert.Equal("MRCMP010", diagnostic.Id);
        Assert.Equal("probe.compact.json", diagnostic.Location.GetLineSpan().Path);
        Assert.Contains("Gone (type 9): type removed", diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);

        // Old readers of new data are not broken by it.
        Assert.Empty(GeneratorHarness.Run(new CompactSchemaGenerator(), source, [("probe.compact.json", committed)], new Dictionary<string, string> { ["MillraceCompactCompatibility"] = "forward" }).Generator);
    }
}

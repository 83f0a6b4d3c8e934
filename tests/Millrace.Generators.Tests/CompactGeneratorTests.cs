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
    public void InvalidSchemas_AreCompileErrors(string declaration, string id)
    {
        var (generator, _) = Run(declaration);
        var diagnostic = Assert.Single(generator);
        Assert.Equal(id, diagnostic.Id);
        Assert.Equal(DiagnosticSeverity.Error, diagnostic.Severity);
    }
}

using Microsoft.CodeAnalysis;

namespace Millrace.Generators.Tests;

public class NbtGeneratorTests
{
    private static (IReadOnlyList<Diagnostic> Generator, IReadOnlyList<Diagnostic> Compilation) Run(string source) =>
        GeneratorHarness.Run(new Millrace.Nbt.Generator.NbtSerializableGenerator(), source);

    [Fact]
    public void ValidType_GeneratesCodeThatCompiles()
    {
        var (generator, compilation) = Run("""
            using Millrace.Nbt.Serialization;
            namespace Probe;
            public enum Mode { A, B }
            [NbtSerializable] public partial class Inner { public int X { get; set; } }
            [NbtSerializable] public partial record Outer
            {
                public required string Name { get; init; }
                public Mode Mode { get; init; }
                public int? Maybe { get; set; }
                public System.Collections.Generic.List<Inner> Items { get; set; } = new();
                public float[] Floats { get; set; } = System.Array.Empty<float>();
                [NbtName("raw")] public byte[] Raw { get; set; } = System.Array.Empty<byte>();
            }
            """);
        Assert.Empty(generator);
        Assert.Empty(compilation);
    }

    [Theory]
    [InlineData("[NbtSerializable] public class P { public int X { get; set; } }", "MRNBT001")]
    [InlineData("[NbtSerializable] public partial class P { public System.DateTime When { get; set; } }", "MRNBT002")]
    [InlineData("public partial class Outer { [NbtSerializable] public partial class P { } }", "MRNBT003")]
    [InlineData("[NbtSerializable] public partial class P { public P(int x) { } }", "MRNBT004")]
    public void InvalidTypes_AreReportedByTheirIds(string declaration, string id)
    {
        var (generator, _) = Run("using Millrace.Nbt.Serialization;\nnamespace Probe;\n" + declaration);
        var diagnostic = Assert.Single(generator);
        Assert.Equal(id, diagnostic.Id);
        Assert.Equal(DiagnosticSeverity.Error, diagnostic.Severity);
    }
}

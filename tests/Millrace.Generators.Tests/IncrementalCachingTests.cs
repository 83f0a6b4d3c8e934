using Microsoft.CodeAnalysis;
using Millrace.Compact.Generator;
using Millrace.Nbt.Generator;

namespace Millrace.Generators.Tests;

/// <summary>The generators' models are values, so an edit elsewhere does not make them parse and emit again.</summary>
public class IncrementalCachingTests
{
    [Fact]
    public void NbtGenerator_AfterAnUnrelatedEdit_ReusesItsModels()
    {
        var reasons = GeneratorHarness.RerunAfterUnrelatedEdit(new NbtSerializableGenerator(), """
            using Millrace.Nbt.Serialization;
            namespace Probe;
            [NbtSerializable] public partial record Player { public int Health { get; init; } = 20; public System.Collections.Generic.List<string> Tags { get; set; } = new(); }
            [NbtSerializable] public partial class Broken { public System.Uri? Link { get; set; } }
            """);

        Assert.Equal(2, reasons.Count);
        Assert.All(reasons, reason => Assert.True(reason is IncrementalStepRunReason.Cached or IncrementalStepRunReason.Unchanged, reason.ToString()));
    }

    [Fact]
    public void CompactGenerator_AfterAnUnrelatedEdit_ReusesItsModels()
    {
        var reasons = GeneratorHarness.RerunAfterUnrelatedEdit(new CompactSchemaGenerator(), """
            using Millrace.Compact.Serialization;
            namespace Probe;
            [CompactSchema(1)] public partial record User { [Field(1)] public long Id { get; init; } [Field(2)] public string Name { get; init; } = ""; }
            [CompactSchema(2)] public partial class Broken { [Field(0)] public int X { get; set; } }
            """);

        Assert.Equal(2, reasons.Count);
        Assert.All(reasons, reason => Assert.True(reason is IncrementalStepRunReason.Cached or IncrementalStepRunReason.Unchanged, reason.ToString()));
    }
}

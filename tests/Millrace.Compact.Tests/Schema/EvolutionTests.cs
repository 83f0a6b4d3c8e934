using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests.Schema;

public class EvolutionTests
{
    private static CompactSchemaSet Version(string fields, string reserved = "[]") =>
        CompactSchemaSet.Parse($$"""{"types":[{"name":"User","id":1,"reserved":{{reserved}},"fields":[{{fields}}]}]}""");

    private static readonly CompactSchemaSet V1 = Version("""{"name":"id","index":1,"type":"int64"},{"name":"name","index":2,"type":"string"}""");

    [Fact]
    public void AddedField_OldReadersSkipIt_NewReadersSeeItAbsent()
    {
        var v2 = Version("""{"name":"id","index":1,"type":"int64"},{"name":"name","index":2,"type":"string"},{"name":"email","index":3,"type":"string"}""");
        var fromNew = CompactTestSupport.Encode(v2, "User", """{"id":1,"name":"Ann","email":"a@b.c"}""");
        Assert.Equal("""{"id":1,"name":"Ann"}""", CompactTestSupport.Decode(V1, fromNew));
        var fromOld = CompactTestSupport.Encode(V1, "User", """{"id":1,"name":"Ann"}""");
        Assert.Equal("""{"id":1,"name":"Ann"}""", CompactTestSupport.Decode(v2, fromOld));
    }

    [Fact]
    public void RemovedField_IsReserved_AndItsIndexCannotBeReused()
    {
        var v2 = Version("""{"name":"id","index":1,"type":"int64"}""", "[2]");
        Assert.Equal("""{"id":1}""", CompactTestSupport.Decode(v2, CompactTestSupport.Encode(V1, "User", """{"id":1,"name":"Ann"}""")));
        var reuse = Assert.Throws<FormatException>(() => Version("""{"name":"id","index":1,"type":"int64"},{"name":"nick","index":2,"type":"string"}""", "[2]"));
        Assert.Contains("reserved", reuse.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RenameAndReorder_AreFree()
    {
        var v2 = Version("""{"name":"displayName","index":2,"type":"string"},{"name":"userId","index":1,"type":"int64"}""");
        Assert.Equal("""{"userId":1,"displayName":"Ann"}""", CompactTestSupport.Decode(v2, CompactTestSupport.Encode(V1, "User", """{"id":1,"name":"Ann"}""")));
    }

    [Fact]
    public void ChangedType_IsAClearErrorNeverGarbage()
    {
        var v2 = Version("""{"name":"id","index":1,"type":"string"},{"name":"name","index":2,"type":"string"}""");
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(v2, CompactTestSupport.Encode(V1, "User", """{"id":1,"name":"Ann"}""")));
        Assert.Contains("type changed", error.Message, StringComparison.Ordinal);
        Assert.Equal("id", error.Path);
        Assert.Equal(0, error.ByteOffset);
    }

    [Fact]
    public void Registry_RejectsDuplicateIdsNamesAndIndices()
    {
        Assert.Throws<FormatException>(() => CompactSchemaSet.Parse("""{"types":[{"name":"A","id":1,"fields":[]},{"name":"B","id":1,"fields":[]}]}"""));
        Assert.Throws<FormatException>(() => CompactSchemaSet.Parse("""{"types":[{"name":"A","id":1,"fields":[]},{"name":"A","id":2,"fields":[]}]}"""));
        Assert.Throws<FormatException>(() => Version("""{"name":"a","index":1,"type":"int64"},{"name":"b","index":1,"type":"int64"}"""));
        Assert.Throws<FormatException>(() => Version("""{"name":"a","index":0,"type":"int64"}"""));
        Assert.Throws<FormatException>(() => Version("""{"name":"a","index":1,"type":"Nope"}"""));
        Assert.Throws<FormatException>(() => Version("""{"name":"a","index":1,"type":"list<>"}"""));
    }
}

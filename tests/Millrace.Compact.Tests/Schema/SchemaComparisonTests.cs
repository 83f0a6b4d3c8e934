using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests.Schema;

/// <summary>compact check's rules (docs/compact-format.md, Evolution): a table of schema changes, each with the verdict
/// the rules give for the readers it breaks.</summary>
public class SchemaComparisonTests
{
    private const string Old =
        """{"types":[{"name":"User","id":1,"fields":[{"name":"id","index":1,"type":"int64"},{"name":"name","index":2,"type":"string"},{"name":"age","index":3,"type":"int32"},{"name":"tags","index":4,"type":"list<string>"},{"name":"owner","index":5,"type":"User"},{"name":"count","index":6,"type":"uint64"}],"reserved":[9]},{"name":"Audit","id":2,"fields":[{"name":"at","index":1,"type":"timestamp"}]}]}""";

    public static TheoryData<string, string, string, bool, bool> Changes() => new()
    {
        // what, old text, new text, breaks backward, breaks forward
        { "field added", """{"name":"count","index":6,"type":"uint64"}""", """{"name":"count","index":6,"type":"uint64"},{"name":"email","index":7,"type":"string"}""", false, false },
        { "field renamed", """{"name":"name","index":2,"type":"string"}""", """{"name":"displayName","index":2,"type":"string"}""", false, false },
        { "field removed, index reserved", """,{"name":"count","index":6,"type":"uint64"}],"reserved":[9]""", """],"reserved":[6,9]""", false, false },
        { "field removed, index not reserved", """,{"name":"count","index":6,"type":"uint64"}""", string.Empty, true, true },
        { "wire type changed", """{"name":"age","index":3,"type":"int32"}""", """{"name":"age","index":3,"type":"string"}""", true, true },
        { "int32 widened to int64", """{"name":"age","index":3,"type":"int32"}""", """{"name":"age","index":3,"type":"int64"}""", false, true },
        { "int64 narrowed to int32", """{"name":"id","index":1,"type":"int64"}""", """{"name":"id","index":1,"type":"int32"}""", true, false },
        { "encoding changed", """{"name":"age","index":3,"type":"int32"}""", """{"name":"age","index":3,"type":"int32","encoding":"twos-complement"}""", true, true },
        { "signed to unsigned", """{"name":"count","index":6,"type":"uint64"}""", """{"name":"count","index":6,"type":"int64"}""", true, true },
        { "list element changed", """{"name":"tags","index":4,"type":"list<string>"}""", """{"name":"tags","index":4,"type":"list<bytes>"}""", true, true },
        { "record field to another record", """{"name":"owner","index":5,"type":"User"}""", """{"name":"owner","index":5,"type":"Audit"}""", true, true },
        { "reserved index reused", """{"name":"count","index":6,"type":"uint64"}],"reserved":[9]""", """{"name":"count","index":6,"type":"uint64"},{"name":"back","index":9,"type":"bool"}],"reserved":[]""", true, true },
        { "reservation dropped", "\"reserved\":[9]", "\"reserved\":[]", true, true },
        { "type renamed", "\"name\":\"Audit\"", "\"name\":\"AuditEntry\"", false, false },
        { "type id changed", "\"name\":\"Audit\",\"id\":2", "\"name\":\"Audit\",\"id\":3", true, true },
        { "type removed", """,{"name":"Audit","id":2,"fields":[{"name":"at","index":1,"type":"timestamp"}]}""", string.Empty, true, false },
    };

    [Theory]
    [MemberData(nameof(Changes))]
    public void EachChange_IsListed_WithTheReadersItBreaks(string what, string before, string after, bool backward, bool forward)
    {
        var changed = Old.Replace(before, after, StringComparison.Ordinal);
        Assert.NotEqual(Old, changed);
        var changes = CompactSchemaComparison.Compare(CompactSchemaSet.Parse(Old), CompactSchemaSet.Parse(changed));

        Assert.True(changes.Count > 0, what);
        Assert.Equal(backward, changes.Any(c => c.BreaksBackward));
        Assert.Equal(forward, changes.Any(c => c.BreaksForward));
        Assert.Equal(backward || forward, changes.Any(c => c.Breaks(CompatibilityMode.Full)));
    }

    [Fact]
    public void TheSameSchema_HasNoChange_AndATypeAdded_BreaksOldReadersOnly()
    {
        Assert.Empty(CompactSchemaComparison.Compare(CompactSchemaSet.Parse(Old), CompactSchemaSet.Parse(Old)));
        var added = Old.Replace("]}]}", "]},{\"name\":\"Extra\",\"id\":9,\"fields\":[]}]}", StringComparison.Ordinal);
        var change = Assert.Single(CompactSchemaComparison.Compare(CompactSchemaSet.Parse(Old), CompactSchemaSet.Parse(added)));
        Assert.Equal((false, true), (change.BreaksBackward, change.BreaksForward));
        Assert.StartsWith("breaking (forward): Extra (type 9): type added", change.ToString(), StringComparison.Ordinal);
    }
}

using Millrace.Compact.Wire;

namespace Millrace.Compact.Schema;

/// <summary>Which readers a schema change must not break, as schema registries name them.</summary>
public enum CompatibilityMode
{
    /// <summary>Readers with the new schema read data written with the old one.</summary>
    Backward,

    /// <summary>Readers with the old schema read data written with the new one.</summary>
    Forward,

    /// <summary>Both.</summary>
    Full,
}

/// <summary>One difference between two versions of a schema, and which readers it breaks.</summary>
/// <param name="Path">Where: the type, or the type and field with its index (<c>User.name [2]</c>).</param>
/// <param name="Description">What changed, in words.</param>
/// <param name="BreaksBackward">Whether readers with the new schema misread or refuse data written with the old one.</param>
/// <param name="BreaksForward">Whether readers with the old schema misread or refuse data written with the new one.</param>
public sealed record SchemaChange(string Path, string Description, bool BreaksBackward, bool BreaksForward)
{
    /// <summary>Gets whether the change breaks the readers <paramref name="mode"/> protects.</summary>
    /// <param name="mode">The compatibility asked for.</param>
    /// <returns><see langword="true"/> when it does.</returns>
    public bool Breaks(CompatibilityMode mode) => mode switch
    {
        CompatibilityMode.Backward => BreaksBackward,
        CompatibilityMode.Forward => BreaksForward,
        _ => BreaksBackward || BreaksForward,
    };

    /// <summary>Gets the change as one line: its verdict, where, and what.</summary>
    /// <returns>The line.</returns>
    public override string ToString()
    {
        var verdict = (BreaksBackward, BreaksForward) switch
        {
            (true, true) => "breaking (backward and forward)",
            (true, false) => "breaking (backward)",
            (false, true) => "breaking (forward)",
            _ => "safe",
        };
        return $"{verdict}: {Path}: {Description}";
    }
}

/// <summary>
/// The rules of docs/compact-format.md, Evolution, over two schema files: the comparison behind
/// <c>CompactSchemaComparison</c> and the generator's check of a type against its committed schema.
/// </summary>
internal static class SchemaEvolution
{
    /// <summary>Lists every difference between two versions of a schema, type by type in id order.</summary>
    public static List<SchemaChange> Compare(IReadOnlyList<SchemaFileType> old, IReadOnlyList<SchemaFileType> @new)
    {
        var changes = new List<SchemaChange>();
        var oldIds = Ids(old);
        var newIds = Ids(@new);
        foreach (var id in old.Select(t => t.Id).Union(@new.Select(t => t.Id)).OrderBy(id => id))
        {
            var before = old.FirstOrDefault(t => t.Id == id);
            var after = @new.FirstOrDefault(t => t.Id == id);
            switch (before, after)
            {
                case (null, { } added) when oldIds(added.Name) is not null:
                    // A type whose id moved: said once, at its old id.
                    break;
                case (null, { } added):
                    changes.Add(new($"{added.Name} (type {id})", "type added: readers with the old schema refuse its frames (an unknown type id)", false, true));
                    break;
                case ({ } removed, null):
                    changes.Add(Removed(removed, newIds(removed.Name)));
                    break;
                case ({ } matched, { } other) when matched.Name != other.Name && newIds(matched.Name) is { } moved:
                    // The id now names another type: not a rename, since the old type lives on under another id.
                    changes.Add(Removed(matched, moved));
                    changes.Add(new($"{other.Name} (type {id})", $"type id {id}, {matched.Name}'s in the old schema, now names {other.Name}: each schema's readers misread the other's frames", true, true));
                    break;
                case ({ } matched, { } other):
                    CompareType(matched, other, oldIds, newIds, changes);
                    break;
            }
        }

        return changes;
    }

    /// <summary>The change of a type the new schema no longer has under its id: removed, or moved to another id.</summary>
    public static SchemaChange Removed(SchemaFileType removed, int? movedTo) => movedTo is { } moved
        ? new($"{removed.Name} (type {removed.Id})", $"type id changed from {removed.Id} to {moved}: each schema's readers refuse the other's frames", true, true)
        : new($"{removed.Name} (type {removed.Id})", "type removed: readers with the new schema refuse the frames written with it (an unknown type id)", true, false);

    /// <summary>Gets a lookup of a schema's type ids by name.</summary>
    public static Func<string, int?> Ids(IReadOnlyList<SchemaFileType> types) => name => types.FirstOrDefault(t => t.Name == name)?.Id;

    /// <summary>Lists the differences between two versions of one type (the same id), resolving the record types their fields
    /// name through each version's ids.</summary>
    public static void CompareType(SchemaFileType before, SchemaFileType after, Func<string, int?> oldIds, Func<string, int?> newIds, List<SchemaChange> changes)
    {
        var typePath = $"{after.Name} (type {after.Id})";
        if (before.Name != after.Name)
        {
            changes.Add(new(typePath, $"type renamed from {before.Name}: names are not on the wire", false, false));
        }

        if ((before.Cases is null) != (after.Cases is null))
        {
            changes.Add(new(typePath, before.Cases is null ? "a record became a union: each schema's readers misread the other's values" : "a union became a record: each schema's readers misread the other's values", true, true));
            return;
        }

        if (before.RetainsUnknownFields != after.RetainsUnknownFields)
        {
            changes.Add(new(typePath, after.RetainsUnknownFields
                ? "now keeps the fields it does not know and writes them back"
                : "no longer keeps the fields it does not know: a record read from a newer writer and written back loses them", false, false));
        }

        if (before.Cases is { } beforeCases && after.Cases is { } afterCases)
        {
            CompareCases(before, after, beforeCases, afterCases, oldIds, newIds, changes);
            return;
        }

        var indices = before.Fields.Select(f => f.Index).Union(after.Fields.Select(f => f.Index)).Union(before.Reserved).Union(after.Reserved).OrderBy(i => i);
        foreach (var index in indices)
        {
            var was = before.Fields.FirstOrDefault(f => f.Index == index);
            var now = after.Fields.FirstOrDefault(f => f.Index == index);
            var path = $"{after.Name}.{now?.Name ?? was?.Name ?? "(reserved)"} [{index}]";
            switch (was, now)
            {
                case (null, { } added) when before.Reserved.Contains(index):
                    changes.Add(new(path, $"field {added.Name} added at an index the old schema reserves: data written before the index was reserved reads as this field", true, true));
                    break;
                case (null, { Required: true, OmitDefault: false } added):
                    changes.Add(new(path, $"required field {added.Name} ({added.Type}) added: readers with the new schema refuse old data, which lacks it", true, false));
                    break;
                case (null, { } added):
                    changes.Add(new(path, $"field {added.Name} ({added.Type}) added: old readers skip it, new readers see it absent in old data", false, false));
                    break;
                case ({ } removed, null) when !after.Reserved.Contains(index):
                    changes.Add(new(path, $"field {removed.Name} removed without reserving its index: a later field could reuse it and misread old data; add {index} to reserved", true, true));
                    break;
                case ({ } removed, null) when removed.Required && !removed.OmitDefault:
                    changes.Add(new(path, $"required field {removed.Name} removed (its index reserved): readers with the old schema refuse new data, which lacks it", false, true));
                    break;
                case ({ } removed, null):
                    changes.Add(new(path, $"field {removed.Name} removed and its index reserved", false, false));
                    break;
                case ({ } field, { } same):
                    CompareField(path, field, same, oldIds, newIds, changes);
                    break;
                case (null, null):
                    Reservation(path, index, before.Reserved.Contains(index), after.Reserved.Contains(index), changes);
                    break;
            }
        }
    }

    private static void CompareCases(SchemaFileType before, SchemaFileType after, List<SchemaFileCase> beforeCases, List<SchemaFileCase> afterCases, Func<string, int?> oldIds, Func<string, int?> newIds, List<SchemaChange> changes)
    {
        var tags = beforeCases.Select(c => c.Tag).Union(afterCases.Select(c => c.Tag)).Union(before.Reserved).Union(after.Reserved).OrderBy(t => t);
        foreach (var tag in tags)
        {
            var was = beforeCases.FirstOrDefault(c => c.Tag == tag);
            var now = afterCases.FirstOrDefault(c => c.Tag == tag);
            var path = $"{after.Name}.{now?.Type ?? was?.Type ?? "(reserved)"} [tag {tag}]";
            switch (was, now)
            {
                case (null, { } added) when before.Reserved.Contains(tag):
                    changes.Add(new(path, $"case {added.Type} added at a tag the old schema reserves: values written before the tag was reserved read as this case", true, true));
                    break;
                case (null, { } added):
                    changes.Add(new(path, $"case {added.Type} added: readers with the old schema refuse values holding it (an unknown tag)", false, true));
                    break;
                case ({ } removed, null):
                    changes.Add(new(path, $"case {removed.Type} removed: readers with the new schema refuse old values holding it (an unknown tag)"
                        + (after.Reserved.Contains(tag) ? string.Empty : $"; and a later case could reuse the tag: add {tag} to reserved"), true, !after.Reserved.Contains(tag)));
                    break;
                case ({ } kept, { } same) when oldIds(kept.Type) != newIds(same.Type):
                    changes.Add(new(path, $"tag {tag} now holds {same.Type}, not {kept.Type}: another record type, misread by each schema's readers", true, true));
                    break;
                case ({ } kept, { } same) when kept.Type != same.Type:
                    changes.Add(new(path, $"case renamed from {kept.Type}: names are not on the wire", false, false));
                    break;
                case (null, null):
                    Reservation(path, tag, before.Reserved.Contains(tag), after.Reserved.Contains(tag), changes);
                    break;
            }
        }
    }

    private static void Reservation(string path, int index, bool wasReserved, bool isReserved, List<SchemaChange> changes)
    {
        if (wasReserved && !isReserved)
        {
            changes.Add(new(path, "index no longer reserved: a later field could reuse it and misread old data", true, true));
        }
        else if (!wasReserved)
        {
            changes.Add(new(path, "index reserved", false, false));
        }
    }

    private static void CompareField(string path, SchemaFileField field, SchemaFileField same, Func<string, int?> oldIds, Func<string, int?> newIds, List<SchemaChange> changes)
    {
        if (field.Name != same.Name)
        {
            changes.Add(new(path, $"field renamed from {field.Name}: names are not on the wire", false, false));
        }

        if (TypeChange(field.Type, field.Encoding, same.Type, same.Encoding, oldIds, newIds) is { } change)
        {
            changes.Add(change with { Path = path });
        }

        // A required field that omits its default is never missing, so requiring it or not breaks no reader.
        if (field.Required != same.Required)
        {
            changes.Add((same.Required, same.OmitDefault && field.OmitDefault) switch
            {
                (_, true) => new(path, same.Required ? "now required (it omits its default, so it is never missing)" : "no longer required", false, false),
                (true, false) => new(path, "now required: readers with the new schema refuse old data without it", true, false),
                (false, false) => new(path, "no longer required: readers with the old schema refuse new data without it", false, true),
            });
        }

        if (field.OmitDefault != same.OmitDefault)
        {
            changes.Add(same.OmitDefault
                ? new(path, "now omitted when it holds its default: readers with the old schema see such a value absent", false, true)
                : new(path, "no longer omitted when it holds its default: readers with the new schema see the defaults old data omitted as absent", true, false));
        }
    }

    // A field's type at one index, old to new: null when the bytes mean the same.
    private static SchemaChange? TypeChange(string wasText, IntegerEncoding wasEncoding, string nowText, IntegerEncoding nowEncoding, Func<string, int?> oldIds, Func<string, int?> newIds)
    {
        var wasKind = SchemaTypeText.Parse(wasText, out var wasInner);
        var nowKind = SchemaTypeText.Parse(nowText, out var nowInner);
        var what = $"type changed from {Describe(wasText, wasKind, wasEncoding)} to {Describe(nowText, nowKind, nowEncoding)}";
        if (SchemaTypeText.WireTypeOf(wasKind) != SchemaTypeText.WireTypeOf(nowKind))
        {
            return new(string.Empty, $"{what}: another wire type, refused by each schema's readers in the other's data", true, true);
        }

        var sameEncoding = wasEncoding == nowEncoding || wasKind is not (CompactFieldKind.Int32 or CompactFieldKind.Int64 or CompactFieldKind.List or CompactFieldKind.Map);
        if (wasKind != nowKind || !sameEncoding)
        {
            return (wasKind, nowKind, sameEncoding) switch
            {
                // Widening: the new readers hold every old value; old readers refuse the new values past their range.
                (CompactFieldKind.Int32, CompactFieldKind.Int64, true) or (CompactFieldKind.UInt32, CompactFieldKind.UInt64, true) =>
                    new(string.Empty, $"{what}: widened, old readers refuse new values past their range", false, true),
                (CompactFieldKind.Int64, CompactFieldKind.Int32, true) or (CompactFieldKind.UInt64, CompactFieldKind.UInt32, true) =>
                    new(string.Empty, $"{what}: narrowed, new readers refuse old values past their range", true, false),
                _ => new(string.Empty, $"{what}: the same bytes mean another value", true, true),
            };
        }

        return wasKind switch
        {
            CompactFieldKind.List or CompactFieldKind.Map => TypeChange(wasInner!, wasEncoding, nowInner!, nowEncoding, oldIds, newIds) is { } inner
                ? inner with { Description = $"{what}: its elements' {inner.Description}" }
                : null,
            CompactFieldKind.Record when oldIds(wasInner!) != newIds(nowInner!) =>
                new(string.Empty, $"{what}: another record type (id {oldIds(wasInner!)} to {newIds(nowInner!)})", true, true),
            _ => null,
        };
    }

    private static string Describe(string text, CompactFieldKind kind, IntegerEncoding encoding) =>
        encoding == IntegerEncoding.TwosComplement && kind is CompactFieldKind.Int32 or CompactFieldKind.Int64 ? $"{text} (two's complement)" : text;
}

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
/// Compares two versions of a schema as the wire sees them (docs/compact-format.md, Evolution): types are matched by id
/// and fields by index, so names are free to change; every difference is listed with the readers it breaks, safe ones
/// included.
/// </summary>
public static class CompactSchemaComparison
{
    /// <summary>Lists every difference between two versions of a schema, type by type in id order, then field by field in index order.</summary>
    /// <param name="old">The schema data was written with, or readers have.</param>
    /// <param name="new">The schema that replaces it.</param>
    /// <returns>The differences; none when the two describe the same bytes with the same names.</returns>
    public static IReadOnlyList<SchemaChange> Compare(CompactSchemaSet old, CompactSchemaSet @new)
    {
        ArgumentNullException.ThrowIfNull(old);
        ArgumentNullException.ThrowIfNull(@new);
        var changes = new List<SchemaChange>();
        foreach (var id in old.Types.Select(t => t.Id).Union(@new.Types.Select(t => t.Id)).Order())
        {
            old.TryGetType(id, out var before);
            @new.TryGetType(id, out var after);
            switch (before, after)
            {
                case (null, { } added):
                    changes.Add(new($"{added.Name} (type {id})", "type added: readers with the old schema refuse its frames (an unknown type id)", false, true));
                    break;
                case ({ } removed, null):
                    var moved = @new.Types.FirstOrDefault(t => t.Name == removed.Name);
                    changes.Add(new($"{removed.Name} (type {id})", moved is null
                        ? "type removed: readers with the new schema refuse the frames written with it (an unknown type id)"
                        : $"type id changed from {id} to {moved.Id}: each schema's readers refuse the other's frames", true, moved is not null));
                    break;
                case ({ } matched, { } other):
                    CompareType(matched, other, old, @new, changes);
                    break;
            }
        }

        return changes;
    }

    private static void CompareType(CompactType before, CompactType after, CompactSchemaSet old, CompactSchemaSet @new, List<SchemaChange> changes)
    {
        if (before.Name != after.Name)
        {
            changes.Add(new($"{after.Name} (type {after.Id})", $"type renamed from {before.Name}: names are not on the wire", false, false));
        }

        var indices = before.Fields.Select(f => f.Index).Union(after.Fields.Select(f => f.Index)).Union(before.Reserved).Union(after.Reserved).Order();
        foreach (var index in indices)
        {
            before.TryGetField(index, out var was);
            after.TryGetField(index, out var now);
            var path = $"{after.Name}.{now?.Name ?? was?.Name ?? "(reserved)"} [{index}]";
            switch (was, now)
            {
                case (null, { } added) when before.Reserved.Contains(index):
                    changes.Add(new(path, $"field {added.Name} added at an index the old schema reserves: data written before the index was reserved reads as this field", true, true));
                    break;
                case (null, { } added):
                    changes.Add(new(path, $"field {added.Name} ({added.Type}) added: old readers skip it, new readers see it absent in old data", false, false));
                    break;
                case ({ } removed, null) when after.Reserved.Contains(index):
                    changes.Add(new(path, $"field {removed.Name} removed and its index reserved", false, false));
                    break;
                case ({ } removed, null):
                    changes.Add(new(path, $"field {removed.Name} removed without reserving its index: a later field could reuse it and misread old data; add {index} to reserved", true, true));
                    break;
                case ({ } field, { } same):
                    if (field.Name != same.Name)
                    {
                        changes.Add(new(path, $"field renamed from {field.Name}: names are not on the wire", false, false));
                    }

                    if (TypeChange(field.Type, same.Type, old, @new) is { } change)
                    {
                        changes.Add(change with { Path = path });
                    }

                    break;
                case (null, null) when before.Reserved.Contains(index) && !after.Reserved.Contains(index):
                    changes.Add(new(path, "index no longer reserved: a later field could reuse it and misread old data", true, true));
                    break;
                case (null, null) when !before.Reserved.Contains(index):
                    changes.Add(new(path, "index reserved", false, false));
                    break;
            }
        }
    }

    // A field's type at one index, old to new: null when the bytes mean the same.
    private static SchemaChange? TypeChange(CompactFieldType was, CompactFieldType now, CompactSchemaSet old, CompactSchemaSet @new)
    {
        var what = $"type changed from {Describe(was)} to {Describe(now)}";
        if (was.WireType != now.WireType)
        {
            return new(string.Empty, $"{what}: another wire type, refused by each schema's readers in the other's data", true, true);
        }

        if (was.Kind != now.Kind || was.Encoding != now.Encoding)
        {
            return (was.Kind, now.Kind, was.Encoding == now.Encoding) switch
            {
                // Widening: the new readers hold every old value; old readers refuse the new values past their range.
                (CompactFieldKind.Int32, CompactFieldKind.Int64, true) or (CompactFieldKind.UInt32, CompactFieldKind.UInt64, true) =>
                    new(string.Empty, $"{what}: widened, old readers refuse new values past their range", false, true),
                (CompactFieldKind.Int64, CompactFieldKind.Int32, true) or (CompactFieldKind.UInt64, CompactFieldKind.UInt32, true) =>
                    new(string.Empty, $"{what}: narrowed, new readers refuse old values past their range", true, false),
                _ => new(string.Empty, $"{what}: the same bytes mean another value", true, true),
            };
        }

        return was.Kind switch
        {
            CompactFieldKind.List or CompactFieldKind.Map => TypeChange(was.Element!, now.Element!, old, @new) is { } inner
                ? inner with { Description = $"{what}: its elements' {inner.Description}" }
                : null,
            CompactFieldKind.Record when was.Record?.Id != now.Record?.Id =>
                new(string.Empty, $"{what}: another record type (id {was.Record?.Id} to {now.Record?.Id})", true, true),
            _ => null,
        };
    }

    private static string Describe(CompactFieldType type) =>
        type.Encoding == IntegerEncoding.TwosComplement && type.Kind is CompactFieldKind.Int32 or CompactFieldKind.Int64 ? $"{type} (two's complement)" : type.ToString();
}

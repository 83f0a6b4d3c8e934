namespace Millrace.Compact.Schema;

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
        return SchemaEvolution.Compare(old.ToSchemaFile(), @new.ToSchemaFile());
    }
}

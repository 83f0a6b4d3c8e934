namespace Millrace.Compact.Schema;

/// <summary>A field of a runtime schema type.</summary>
/// <param name="Name">The field's name (the JSON property name).</param>
/// <param name="Index">The field's index on the wire, at least 1; it never changes once used.</param>
/// <param name="Type">The field's type.</param>
public sealed record CompactField(string Name, int Index, CompactFieldType Type)
{
    /// <summary>Gets whether the field is left out when it holds its default, the value whose encoding is all zeros or empty
    /// (docs/compact-format.md, Defaults), and read as that default when absent.</summary>
    /// <exception cref="ArgumentException">Set on a record or union field, which has no default.</exception>
    public bool OmitDefault
    {
        get;
        init => field = value && Type.Kind == CompactFieldKind.Record
            ? throw new ArgumentException("omitDefault applies to a field whose type has a default; a record or union has none.", nameof(OmitDefault))
            : value;
    }

    /// <summary>Gets whether a record without the field is refused (<see cref="CompactErrorCodes.MissingField"/>); a field
    /// that also omits its default is never missing: absent, it holds its default.</summary>
    public bool IsRequired { get; init; }
}

namespace Millrace.Compact.Schema;

/// <summary>A case of a union: the tag it is written under and the record type it holds.</summary>
/// <param name="Tag">The tag, at least 1; it never changes once used.</param>
/// <param name="TypeName">The case's record type.</param>
public sealed record CompactUnionCase(int Tag, string TypeName)
{
    /// <summary>Gets the case's record type, once the schema set has resolved it.</summary>
    public CompactType? Type { get; internal set; }
}

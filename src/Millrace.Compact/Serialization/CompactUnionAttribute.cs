namespace Millrace.Compact.Serialization;

/// <summary>
/// Declares a case of a polymorphic <see cref="CompactSchemaAttribute"/> base type: a subtype and the tag that stands
/// for it on the wire. A union value is written as a record with one length-delimited field whose index is the tag
/// and whose value is the subtype's fields; an unknown tag is a clear error.
/// </summary>
/// <param name="tag">The case's tag, at least 1; it never changes once used.</param>
/// <param name="type">The subtype, itself a <see cref="CompactSchemaAttribute"/> type.</param>
[AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = false)]
public sealed class CompactUnionAttribute(int tag, Type type) : Attribute
{
    /// <summary>Gets the case's tag.</summary>
    public int Tag { get; } = tag;

    /// <summary>Gets the subtype.</summary>
    public Type Type { get; } = type;
}

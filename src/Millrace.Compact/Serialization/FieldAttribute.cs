using Millrace.Compact.Wire;

namespace Millrace.Compact.Serialization;

/// <summary>Maps a property of a <see cref="CompactSchemaAttribute"/> type to a field index, which never changes once used.</summary>
/// <param name="index">The field index, at least 1.</param>
[AttributeUsage(AttributeTargets.Property, Inherited = false)]
public sealed class FieldAttribute(int index) : Attribute
{
    /// <summary>Gets the field index.</summary>
    public int Index { get; } = index;

    /// <summary>Gets a value indicating whether a value equal to its type's default (0, false, an empty string) is omitted
    /// like an absent one, costing zero bytes; readers then see the default.</summary>
    public bool OmitDefault { get; init; }

    /// <summary>Gets how a signed integer member (or the elements and values of a list or map of them) is encoded; the
    /// default is <see cref="IntegerEncoding.ZigZag"/>. Any other member type with a non-default encoding is a build error.</summary>
    public IntegerEncoding Encoding { get; init; }
}

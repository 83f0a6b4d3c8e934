namespace Millrace.Compact.Serialization;

/// <summary>
/// Marks a partial class, record or struct as a compact record type with a registry id. A source generator
/// implements <see cref="ICompactSerializable{TSelf}"/> for it from its <see cref="FieldAttribute"/> members: no
/// reflection, so it works under NativeAOT and trimming. Duplicate, non-positive and reserved field indices are
/// compile errors (MRCMP001–003).
/// </summary>
/// <param name="typeId">The type's id in the frame header.</param>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct, Inherited = false)]
public sealed class CompactSchemaAttribute(int typeId) : Attribute
{
    /// <summary>Gets the type's registry id.</summary>
    public int Id { get; } = typeId;
}

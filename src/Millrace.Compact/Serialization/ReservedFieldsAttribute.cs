namespace Millrace.Compact.Serialization;

/// <summary>Lists the indices of removed fields of a <see cref="CompactSchemaAttribute"/> type, so no field reuses them.</summary>
/// <param name="indices">The retired indices.</param>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct, Inherited = false)]
public sealed class ReservedFieldsAttribute(params int[] indices) : Attribute
{
    /// <summary>Gets the retired indices.</summary>
    public IReadOnlyList<int> Indices { get; } = indices;
}

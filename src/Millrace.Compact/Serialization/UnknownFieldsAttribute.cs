namespace Millrace.Compact.Serialization;

/// <summary>
/// Marks a <see cref="CompactUnknownFields"/> property of a <see cref="CompactSchemaAttribute"/> type that keeps the
/// fields a reader did not know, so that re-encoding the record emits them again and a round trip through an older
/// version of the type loses nothing.
/// </summary>
[AttributeUsage(AttributeTargets.Property, Inherited = false)]
public sealed class UnknownFieldsAttribute : Attribute;

namespace Millrace.Compact.Schema;

/// <summary>A field of a runtime schema type.</summary>
/// <param name="Name">The field's name (the JSON property name).</param>
/// <param name="Index">The field's index on the wire, at least 1; it never changes once used.</param>
/// <param name="Type">The field's type.</param>
public sealed record CompactField(string Name, int Index, CompactFieldType Type);

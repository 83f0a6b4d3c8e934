using Microsoft.CodeAnalysis;

namespace Millrace.Compact.Generator;

/// <summary>The diagnostics of the <c>[CompactSchema]</c> generator.</summary>
internal static class DiagnosticDescriptors
{
    private const string Category = "Millrace.Compact";

    public static readonly DiagnosticDescriptor NotPartial = new(
        "MRCMP001",
        "A [CompactSchema] type must be partial",
        "'{0}' is marked [CompactSchema] but is not partial",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor NonPositiveIndex = new(
        "MRCMP002",
        "Field indices must be at least 1",
        "'{0}.{1}' has field index {2}; indices start at 1",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor DuplicateIndex = new(
        "MRCMP003",
        "Field indices must be unique",
        "'{0}.{1}' reuses field index {2} of '{3}'",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor ReservedIndex = new(
        "MRCMP004",
        "Reserved field indices cannot be used",
        "'{0}.{1}' uses field index {2}, which [ReservedFields] retires",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor UnsupportedMember = new(
        "MRCMP005",
        "Member type not supported by [CompactSchema]",
        "'{0}.{1}' has type '{2}', which has no compact encoding",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor NestedType = new(
        "MRCMP006",
        "A [CompactSchema] type must not be nested",
        "'{0}' is nested in another type; move it to a namespace",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor NoConstructor = new(
        "MRCMP007",
        "A [CompactSchema] type needs a parameterless constructor",
        "'{0}' has no accessible parameterless constructor",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor EncodingNotSigned = new(
        "MRCMP008",
        "An integer encoding applies to signed integer members only",
        "'{0}.{1}' has type '{2}'; Encoding applies to sbyte, short, int and long members, their enums, and lists, arrays and maps of them, and takes a defined IntegerEncoding",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor OmitDefaultNullable = new(
        "MRCMP009",
        "OmitDefault applies to members that cannot be null and whose type has a default",
        "'{0}.{1}' has type '{2}' and OmitDefault: absent, the field reads as its default, so null could not be read back, and a record or union has no default",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor BreaksCommittedSchema = new(
        "MRCMP010",
        "A [CompactSchema] type breaks its committed schema file",
        "'{0}' breaks the schema committed in {1}: {2}: {3}",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor BadCommittedSchema = new(
        "MRCMP011",
        "A committed schema file cannot be read",
        "The committed schema file {0} cannot be read: {1}",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);
}

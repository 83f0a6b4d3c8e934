using Microsoft.CodeAnalysis;

namespace Millrace.Nbt.Generator;

/// <summary>The diagnostics of the <c>[NbtSerializable]</c> generator.</summary>
internal static class DiagnosticDescriptors
{
    private const string Category = "Millrace.Nbt";

    public static readonly DiagnosticDescriptor NotPartial = new(
        "MRNBT001",
        "An [NbtSerializable] type must be partial",
        "'{0}' is marked [NbtSerializable] but is not partial, so its serializer cannot be generated",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor UnsupportedMember = new(
        "MRNBT002",
        "Member type not supported by [NbtSerializable]",
        "'{0}.{1}' has type '{2}', which has no NBT mapping; use a supported type or mark it [NbtIgnore]",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor NestedType = new(
        "MRNBT003",
        "An [NbtSerializable] type must not be nested",
        "'{0}' is nested in another type; move it to a namespace to generate its serializer",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);

    public static readonly DiagnosticDescriptor NoConstructor = new(
        "MRNBT004",
        "An [NbtSerializable] type needs a parameterless constructor",
        "'{0}' has no accessible parameterless constructor; its members are set with an object initializer",
        Category,
        DiagnosticSeverity.Error,
        isEnabledByDefault: true);
}

using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Millrace.Generators;

/// <summary>The checks and facts every Millrace generator needs about the type it generates for.</summary>
internal static class TargetTypeChecks
{
    /// <summary>Reports a type that is not partial, is nested, or (when required) has no parameterless constructor.</summary>
    public static void Check(
        INamedTypeSymbol type,
        TypeDeclarationSyntax syntax,
        bool needsConstructor,
        (DiagnosticDescriptor NotPartial, DiagnosticDescriptor Nested, DiagnosticDescriptor NoConstructor) descriptors,
        ImmutableArray<DiagnosticInfo>.Builder diagnostics)
    {
        var location = syntax.Identifier.GetLocation();
        if (!syntax.Modifiers.Any(m => m.IsKind(SyntaxKind.PartialKeyword)))
        {
            diagnostics.Add(DiagnosticInfo.Create(descriptors.NotPartial, location, type.Name));
        }

        if (type.ContainingType is not null)
        {
            diagnostics.Add(DiagnosticInfo.Create(descriptors.Nested, location, type.Name));
        }

        if (needsConstructor && type.TypeKind == TypeKind.Class
            && !type.InstanceConstructors.Any(c => c.Parameters.Length == 0 && c.DeclaredAccessibility >= Accessibility.Internal))
        {
            diagnostics.Add(DiagnosticInfo.Create(descriptors.NoConstructor, location, type.Name));
        }
    }

    /// <summary>Gets the keyword that redeclares the type as partial: class, struct, record or record struct.</summary>
    public static string Keyword(INamedTypeSymbol type) => type.IsRecord
        ? type.TypeKind == TypeKind.Struct ? "record struct" : "record"
        : type.TypeKind == TypeKind.Struct ? "struct" : "class";

    /// <summary>Gets the type's namespace, or <see langword="null"/> for the global namespace.</summary>
    public static string? Namespace(INamedTypeSymbol type) =>
        type.ContainingNamespace.IsGlobalNamespace ? null : type.ContainingNamespace.ToDisplayString();

    /// <summary>Unwraps <c>Nullable&lt;T&gt;</c>.</summary>
    /// <param name="type">The member type; replaced by <c>T</c> when it is <c>Nullable&lt;T&gt;</c>.</param>
    /// <returns><see langword="true"/> when it was a nullable value type.</returns>
    public static bool UnwrapNullable(ref ITypeSymbol type)
    {
        if (type is INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } nullable)
        {
            type = nullable.TypeArguments[0];
            return true;
        }

        return false;
    }
}

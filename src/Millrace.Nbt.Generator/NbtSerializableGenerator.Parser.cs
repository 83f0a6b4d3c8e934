using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Millrace.Generators;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Millrace.Nbt.Generator;

public sealed partial class NbtSerializableGenerator
{
    private static readonly SymbolDisplayFormat TypeFormat = SymbolDisplayFormat.FullyQualifiedFormat
        .AddMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    private static GeneratorParseResult<NbtTypeModel> Parse(INamedTypeSymbol type, TypeDeclarationSyntax syntax, CancellationToken cancellationToken)
    {
        var diagnostics = ImmutableArray.CreateBuilder<DiagnosticInfo>();
        var location = syntax.Identifier.GetLocation();
        TargetTypeChecks.Check(type, syntax, needsConstructor: true, (DiagnosticDescriptors.NotPartial, DiagnosticDescriptors.NestedType, DiagnosticDescriptors.NoConstructor), diagnostics);

        var members = new List<MemberModel>();
        foreach (var property in type.GetMembers().OfType<IPropertySymbol>())
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (property.IsStatic || property.IsIndexer || property.DeclaredAccessibility != Accessibility.Public
                || property.SetMethod is not { DeclaredAccessibility: Accessibility.Public } setter
                || property.GetMethod is null || HasAttribute(property, "NbtIgnoreAttribute"))
            {
                continue;
            }

            var member = ParseMember(property, setter.IsInitOnly);
            if (member is null)
            {
                diagnostics.Add(DiagnosticInfo.Create(
                    DiagnosticDescriptors.UnsupportedMember,
                    property.Locations.FirstOrDefault() ?? location,
                    type.Name,
                    property.Name,
                    property.Type.ToDisplayString()));
                continue;
            }

            members.Add(member);
        }

        if (diagnostics.Count > 0)
        {
            return new GeneratorParseResult<NbtTypeModel>(null, new EquatableArray<DiagnosticInfo>(diagnostics.ToImmutable()));
        }

        var model = new NbtTypeModel(TargetTypeChecks.Namespace(type), type.Name, type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat), TargetTypeChecks.Keyword(type), members.ToEquatableArray());
        return new GeneratorParseResult<NbtTypeModel>(model, EquatableArray<DiagnosticInfo>.Empty);
    }

    private static MemberModel? ParseMember(IPropertySymbol property, bool isInitOnly)
    {
        var type = property.Type;
        var tagName = property.GetAttributes()
            .FirstOrDefault(a => a.AttributeClass?.Name == "NbtNameAttribute")?.ConstructorArguments.FirstOrDefault().Value as string
            ?? property.Name;
        var typeName = type.ToDisplayString(TypeFormat);
        var isNullableValue = TargetTypeChecks.UnwrapNullable(ref type);

        var canBeNull = !isNullableValue && type.IsReferenceType;

        var collection = CollectionKind.None;
        ITypeSymbol valueType = type;
        if (type is IArrayTypeSymbol { Rank: 1 } array && array.ElementType.SpecialType is not (SpecialType.System_Byte or SpecialType.System_Int32 or SpecialType.System_Int64))
        {
            collection = CollectionKind.Array;
            valueType = array.ElementType;
        }
        else if (type is INamedTypeSymbol { IsGenericType: true } generic
            && generic.OriginalDefinition.ToDisplayString() == "System.Collections.Generic.List<T>")
        {
            collection = CollectionKind.List;
            valueType = generic.TypeArguments[0];
        }

        var shape = Classify(valueType);
        if (shape is null)
        {
            return null;
        }

        return new MemberModel(property.Name, tagName, typeName, shape, collection, isNullableValue, canBeNull, isInitOnly, property.IsRequired);
    }

    private static ValueShape? Classify(ITypeSymbol type)
    {
        var name = type.WithNullableAnnotation(NullableAnnotation.NotAnnotated).ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);
        if (type is INamedTypeSymbol { TypeKind: TypeKind.Enum, EnumUnderlyingType: { } underlying })
        {
            var storage = Primitive(underlying.SpecialType);
            return storage is { } kind and not ValueKind.Bool
                ? new ValueShape(ValueKind.Enum, name, kind, underlying.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat))
                : null;
        }

        if (Primitive(type.SpecialType) is { } primitive)
        {
            return new ValueShape(primitive, name, primitive, name);
        }

        if (type is IArrayTypeSymbol { Rank: 1, ElementType.SpecialType: var element })
        {
            var kind = element switch
            {
                SpecialType.System_Byte => ValueKind.ByteArray,
                SpecialType.System_Int32 => ValueKind.IntArray,
                SpecialType.System_Int64 => ValueKind.LongArray,
                _ => (ValueKind?)null,
            };
            return kind is { } arrayKind ? new ValueShape(arrayKind, name, arrayKind, name) : null;
        }

        return HasAttribute(type, "NbtSerializableAttribute") ? new ValueShape(ValueKind.Object, name, ValueKind.Object, name) : null;
    }

    private static ValueKind? Primitive(SpecialType type) => type switch
    {
        SpecialType.System_Boolean => ValueKind.Bool,
        SpecialType.System_SByte => ValueKind.SByte,
        SpecialType.System_Byte => ValueKind.Byte,
        SpecialType.System_Int16 or SpecialType.System_UInt16 => ValueKind.Short,
        SpecialType.System_Int32 or SpecialType.System_UInt32 => ValueKind.Int,
        SpecialType.System_Int64 or SpecialType.System_UInt64 => ValueKind.Long,
        SpecialType.System_Single => ValueKind.Float,
        SpecialType.System_Double => ValueKind.Double,
        SpecialType.System_String => ValueKind.String,
        _ => null,
    };

    private static bool HasAttribute(ISymbol symbol, string name) =>
        symbol.GetAttributes().Any(a => a.AttributeClass?.Name == name
            && a.AttributeClass.ContainingNamespace.ToDisplayString() == "Millrace.Nbt.Serialization");
}

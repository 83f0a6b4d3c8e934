using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Millrace.Generators;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Millrace.Compact.Generator;

public sealed partial class CompactSchemaGenerator
{
    private const string Namespace = "Millrace.Compact.Serialization";

    private static readonly SymbolDisplayFormat TypeFormat = SymbolDisplayFormat.FullyQualifiedFormat
        .AddMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    private static GeneratorParseResult<CompactTypeModel> Parse(INamedTypeSymbol type, TypeDeclarationSyntax syntax, AttributeData schema, CancellationToken cancellationToken)
    {
        var diagnostics = ImmutableArray.CreateBuilder<DiagnosticInfo>();
        var location = syntax.Identifier.GetLocation();
        var cases = new List<UnionCase>();
        foreach (var union in type.GetAttributes().Where(a => IsOurs(a, "CompactUnionAttribute")))
        {
            var tag = union.ConstructorArguments[0].Value is int value ? value : 0;
            var caseType = union.ConstructorArguments[1].Value as INamedTypeSymbol;
            var caseName = caseType?.Name ?? "?";
            if (tag < 1)
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.NonPositiveIndex, location, type.Name, caseName, tag));
            }
            else if (cases.FirstOrDefault(c => c.Tag == tag) is { } taken)
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.DuplicateIndex, location, type.Name, caseName, tag, taken.TypeName));
            }
            else if (caseType is not null)
            {
                cases.Add(new UnionCase(tag, caseType.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat), caseType.Name, SchemaId(caseType)));
            }
        }

        TargetTypeChecks.Check(type, syntax, needsConstructor: cases.Count == 0, (DiagnosticDescriptors.NotPartial, DiagnosticDescriptors.NestedType, DiagnosticDescriptors.NoConstructor), diagnostics);

        var reserved = new HashSet<int>(type.GetAttributes()
            .Where(a => IsOurs(a, "ReservedFieldsAttribute"))
            .SelectMany(a => a.ConstructorArguments.SelectMany(c => c.Kind == TypedConstantKind.Array ? c.Values : ImmutableArray.Create(c)))
            .Select(c => c.Value is int i ? i : 0));
        var byIndex = new Dictionary<int, string>();
        var fields = new List<FieldModel>();
        string? unknownFields = null;
        var unknownFieldsInitOnly = false;
        foreach (var property in type.GetMembers().OfType<IPropertySymbol>())
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (property.GetAttributes().Any(a => IsOurs(a, "UnknownFieldsAttribute")) && property.SetMethod is not null
                && property.Type.WithNullableAnnotation(NullableAnnotation.NotAnnotated).ToDisplayString() == Namespace + ".CompactUnknownFields")
            {
                unknownFields = property.Name;
                unknownFieldsInitOnly = property.SetMethod.IsInitOnly;
                continue;
            }

            var field = property.GetAttributes().FirstOrDefault(a => IsOurs(a, "FieldAttribute"));
            if (field is null || property.IsStatic || property.SetMethod is null || property.GetMethod is null)
            {
                continue;
            }

            var propertyLocation = property.Locations.FirstOrDefault() ?? location;
            var index = field.ConstructorArguments.FirstOrDefault().Value is int value ? value : 0;
            if (index < 1)
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.NonPositiveIndex, propertyLocation, type.Name, property.Name, index));
                continue;
            }

            if (reserved.Contains(index))
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.ReservedIndex, propertyLocation, type.Name, property.Name, index));
                continue;
            }

            if (byIndex.TryGetValue(index, out var other))
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.DuplicateIndex, propertyLocation, type.Name, property.Name, index, other));
                continue;
            }

            byIndex.Add(index, property.Name);
            var omitDefault = field.NamedArguments.Any(a => a.Key == "OmitDefault" && a.Value.Value is true);
            var model = ParseField(property, index, omitDefault);
            if (model is null)
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.UnsupportedMember, propertyLocation, type.Name, property.Name, property.Type.ToDisplayString()));
                continue;
            }

            // Absent, a field that omits its default reads as that default: a member that can also be null (annotated, or
            // where nullable annotations are off) would read null back as it, and a record has no default to read.
            if (omitDefault && (model.IsNullableValue
                || (model.CanBeNull && property.Type.NullableAnnotation != NullableAnnotation.NotAnnotated)
                || (model.Collection == CollectionKind.None && model.Value.Kind == ValueKind.Record)))
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.OmitDefaultNullable, propertyLocation, type.Name, property.Name, property.Type.ToDisplayString()));
                continue;
            }

            // IntegerEncoding.TwosComplement (1) swaps the signed values' zigzag for a plain varint of their two's complement;
            // ZigZag (0) is the default, and any other value is no encoding at all.
            if (field.NamedArguments.FirstOrDefault(a => a.Key == "Encoding").Value.Value is int encoding && encoding != 0)
            {
                if (encoding != 1 || model.Value.Kind != ValueKind.Signed)
                {
                    diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.EncodingNotSigned, propertyLocation, type.Name, property.Name, property.Type.ToDisplayString()));
                    continue;
                }

                model = model with { Value = model.Value with { Kind = ValueKind.TwosComplement } };
            }

            fields.Add(model);
        }

        if (diagnostics.Count > 0)
        {
            return new GeneratorParseResult<CompactTypeModel>(null, new EquatableArray<DiagnosticInfo>(diagnostics.ToImmutable()));
        }

        var typeId = schema.ConstructorArguments.FirstOrDefault().Value is int id ? id : 0;
        return new GeneratorParseResult<CompactTypeModel>(
            new CompactTypeModel(TargetTypeChecks.Namespace(type), type.Name, type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat), TargetTypeChecks.Keyword(type), typeId, fields.OrderBy(f => f.Index).ToEquatableArray(), cases.ToEquatableArray(), unknownFields, unknownFieldsInitOnly, reserved.OrderBy(i => i).ToEquatableArray(), DiagnosticInfo.Create(DiagnosticDescriptors.BreaksCommittedSchema, location)),
            EquatableArray<DiagnosticInfo>.Empty);
    }

    private static FieldModel? ParseField(IPropertySymbol property, int index, bool omitDefault)
    {
        var type = property.Type;
        var typeName = type.ToDisplayString(TypeFormat);
        var isNullableValue = TargetTypeChecks.UnwrapNullable(ref type);

        var collection = CollectionKind.None;
        var valueType = type;
        if (type is IArrayTypeSymbol { Rank: 1 } array && array.ElementType.SpecialType != SpecialType.System_Byte)
        {
            collection = CollectionKind.Array;
            valueType = array.ElementType;
        }
        else if (type is INamedTypeSymbol { IsGenericType: true } generic)
        {
            var definition = generic.OriginalDefinition.ToDisplayString();
            if (definition == "System.Collections.Generic.List<T>")
            {
                collection = CollectionKind.List;
                valueType = generic.TypeArguments[0];
            }
            else if (definition == "System.Collections.Generic.Dictionary<TKey, TValue>" && generic.TypeArguments[0].SpecialType == SpecialType.System_String)
            {
                collection = CollectionKind.Map;
                valueType = generic.TypeArguments[1];
            }
        }

        var shape = Classify(valueType);
        return shape is null
            ? null
            : new FieldModel(property.Name, index, typeName, shape, collection, isNullableValue, !isNullableValue && type.IsReferenceType, property.SetMethod!.IsInitOnly, property.IsRequired, omitDefault);
    }

    private static ValueShape? Classify(ITypeSymbol type)
    {
        var name = type.WithNullableAnnotation(NullableAnnotation.NotAnnotated).ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);
        if (type is INamedTypeSymbol { TypeKind: TypeKind.Enum, EnumUnderlyingType: { } underlying })
        {
            var storage = Classify(underlying);
            return storage is { Kind: ValueKind.Signed or ValueKind.Unsigned } ? storage with { TypeName = name } : null;
        }

        var kind = type.SpecialType switch
        {
            SpecialType.System_Boolean => ValueKind.Bool,
            SpecialType.System_SByte or SpecialType.System_Int16 or SpecialType.System_Int32 or SpecialType.System_Int64 => ValueKind.Signed,
            SpecialType.System_Byte or SpecialType.System_UInt16 or SpecialType.System_UInt32 or SpecialType.System_UInt64 => ValueKind.Unsigned,
            SpecialType.System_Single => ValueKind.Float32,
            SpecialType.System_Double => ValueKind.Float64,
            SpecialType.System_Decimal => ValueKind.Decimal,
            SpecialType.System_String => ValueKind.String,
            SpecialType.System_DateTime => ValueKind.DateTime,
            _ => (ValueKind?)null,
        };

        kind ??= type switch
        {
            IArrayTypeSymbol { Rank: 1, ElementType.SpecialType: SpecialType.System_Byte } => ValueKind.Bytes,
            _ => type.ToDisplayString() switch
            {
                "System.ReadOnlyMemory<byte>" => ValueKind.Memory,
                "System.Guid" => ValueKind.Guid,
                "System.DateTimeOffset" => ValueKind.DateTimeOffset,
                "System.TimeSpan" => ValueKind.TimeSpan,
                _ => type.GetAttributes().Any(a => IsOurs(a, "CompactSchemaAttribute")) ? ValueKind.Record : null,
            },
        };

        return kind is { } found ? new ValueShape(found, name, name, SchemaType(found, type), type.IsValueType, found == ValueKind.Record ? SchemaId(type) : -1) : null;
    }

    // The value's type in a schema file: sbyte to int are int32 there (a narrower range on the same wire), byte to uint uint32.
    private static string SchemaType(ValueKind kind, ITypeSymbol type) => kind switch
    {
        ValueKind.Bool => "bool",
        ValueKind.Signed => type.SpecialType == SpecialType.System_Int64 ? "int64" : "int32",
        ValueKind.Unsigned => type.SpecialType == SpecialType.System_UInt64 ? "uint64" : "uint32",
        ValueKind.Float32 => "float32",
        ValueKind.Float64 => "float64",
        ValueKind.Decimal => "decimal",
        ValueKind.String => "string",
        ValueKind.Bytes or ValueKind.Memory => "bytes",
        ValueKind.Guid => "guid",
        ValueKind.DateTime or ValueKind.DateTimeOffset => "timestamp",
        ValueKind.TimeSpan => "duration",
        _ => type.Name,
    };

    private static int SchemaId(ITypeSymbol type) =>
        type.GetAttributes().FirstOrDefault(a => IsOurs(a, "CompactSchemaAttribute"))?.ConstructorArguments.FirstOrDefault().Value is int id ? id : -1;

    private static bool IsOurs(AttributeData attribute, string name) =>
        attribute.AttributeClass?.Name == name && attribute.AttributeClass.ContainingNamespace.ToDisplayString() == Namespace;
}

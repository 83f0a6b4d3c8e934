using Millrace.Generators;

namespace Millrace.Compact.Generator;

/// <summary>How one value is encoded.</summary>
internal enum ValueKind
{
    Bool,
    Signed,
    TwosComplement,
    Unsigned,
    Float32,
    Float64,
    Decimal,
    String,
    Bytes,
    Memory,
    Guid,
    DateTime,
    DateTimeOffset,
    TimeSpan,
    Record,
}

/// <summary>Whether a member is one value, an array, a list, or a string-keyed dictionary.</summary>
internal enum CollectionKind
{
    None,
    Array,
    List,
    Map,
}

/// <summary>A value's encoding and C# types: for integers and enums, the storage type and its range; its type in a schema file
/// (<c>int32</c>, <c>User</c>) and, for a record, the record's type id.</summary>
internal sealed record ValueShape(ValueKind Kind, string TypeName, string StorageType, string SchemaType, bool IsValueType, int RecordId = -1);


/// <summary>One field.</summary>
internal sealed record FieldModel(string Name, int Index, string TypeName, ValueShape Value, CollectionKind Collection, bool IsNullableValue, bool CanBeNull, bool IsInitOnly, bool IsRequired, bool OmitDefault);


/// <summary>A case of a union: its tag and subtype, with the subtype's name and type id in a schema file.</summary>
internal sealed record UnionCase(int Tag, string TypeName, string SchemaType, int Id);


/// <summary>A type to generate for, with its reserved indices and where it is declared (for the diagnostics of the check
/// against a committed schema file).</summary>
internal sealed record CompactTypeModel(string? Namespace, string Name, string FullName, string Keyword, int TypeId, EquatableArray<FieldModel> Fields, EquatableArray<UnionCase> Cases, string? UnknownFields, bool UnknownFieldsInitOnly, EquatableArray<int> Reserved, DiagnosticInfo Declared);


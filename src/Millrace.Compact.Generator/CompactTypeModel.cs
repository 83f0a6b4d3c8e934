namespace Millrace.Compact.Generator;

/// <summary>How one value is encoded.</summary>
internal enum ValueKind
{
    Bool,
    Signed,
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

/// <summary>A value's encoding and C# types: for integers and enums, the storage type and its range.</summary>
internal sealed class ValueShape
{
    public ValueShape(ValueKind kind, string typeName, string storageType)
    {
        Kind = kind;
        TypeName = typeName;
        StorageType = storageType;
    }

    public ValueKind Kind { get; }

    public string TypeName { get; }

    /// <summary>Gets the integer type that stores an integer or enum value (its own type for other kinds).</summary>
    public string StorageType { get; }
}

/// <summary>One field.</summary>
internal sealed class FieldModel
{
    public FieldModel(string name, int index, string typeName, ValueShape value, CollectionKind collection, bool isNullableValue, bool canBeNull, bool isInitOnly, bool isRequired, bool omitDefault)
    {
        OmitDefault = omitDefault;
        Name = name;
        Index = index;
        TypeName = typeName;
        Value = value;
        Collection = collection;
        IsNullableValue = isNullableValue;
        CanBeNull = canBeNull;
        IsInitOnly = isInitOnly;
        IsRequired = isRequired;
    }

    public string Name { get; }

    public int Index { get; }

    public string TypeName { get; }

    public ValueShape Value { get; }

    public CollectionKind Collection { get; }

    public bool IsNullableValue { get; }

    public bool CanBeNull { get; }

    public bool IsInitOnly { get; }

    public bool IsRequired { get; }

    /// <summary>Gets a value indicating whether a default value is omitted like an absent one.</summary>
    public bool OmitDefault { get; }
}

/// <summary>A case of a union: its tag and subtype.</summary>
internal sealed class UnionCase
{
    public UnionCase(int tag, string typeName)
    {
        Tag = tag;
        TypeName = typeName;
    }

    public int Tag { get; }

    public string TypeName { get; }
}

/// <summary>A type to generate for.</summary>
internal sealed class CompactTypeModel
{
    public CompactTypeModel(string? ns, string name, string fullName, string keyword, int typeId, System.Collections.Generic.IReadOnlyList<FieldModel> fields, System.Collections.Generic.IReadOnlyList<UnionCase> cases, string? unknownFields, bool unknownFieldsInitOnly)
    {
        Cases = cases;
        UnknownFields = unknownFields;
        UnknownFieldsInitOnly = unknownFieldsInitOnly;
        Namespace = ns;
        Name = name;
        FullName = fullName;
        Keyword = keyword;
        TypeId = typeId;
        Fields = fields;
    }

    public string? Namespace { get; }

    public string Name { get; }

    public string FullName { get; }

    public string Keyword { get; }

    public int TypeId { get; }

    public System.Collections.Generic.IReadOnlyList<FieldModel> Fields { get; }

    /// <summary>Gets the cases of a union base type; empty for a record type.</summary>
    public System.Collections.Generic.IReadOnlyList<UnionCase> Cases { get; }

    /// <summary>Gets the name of the property that keeps unknown fields, if any.</summary>
    public string? UnknownFields { get; }

    public bool UnknownFieldsInitOnly { get; }
}

namespace Millrace.Nbt.Generator;

/// <summary>What the NBT mapping of one value is.</summary>
internal enum ValueKind
{
    Bool,
    SByte,
    Byte,
    Short,
    Int,
    Long,
    Float,
    Double,
    String,
    ByteArray,
    IntArray,
    LongArray,
    Object,
    Enum,
}

/// <summary>One value's mapping: its kind, its C# type, and for enums the integer type that stores it.</summary>
internal sealed class ValueShape
{
    public ValueShape(ValueKind kind, string typeName, ValueKind storage, string storageTypeName)
    {
        Kind = kind;
        TypeName = typeName;
        Storage = storage;
        StorageTypeName = storageTypeName;
    }

    public ValueKind Kind { get; }

    public string TypeName { get; }

    /// <summary>Gets the kind that stores the value: the kind itself, or an enum's underlying integer kind.</summary>
    public ValueKind Storage { get; }

    public string StorageTypeName { get; }
}

/// <summary>Whether a member is one value, a <c>List&lt;T&gt;</c> or an array of values.</summary>
internal enum CollectionKind
{
    None,
    List,
    Array,
}

/// <summary>One mapped member.</summary>
internal sealed class MemberModel
{
    public MemberModel(string name, string tagName, string typeName, ValueShape value, CollectionKind collection, bool isNullableValue, bool canBeNull, bool isInitOnly, bool isRequired)
    {
        Name = name;
        TagName = tagName;
        TypeName = typeName;
        Value = value;
        Collection = collection;
        IsNullableValue = isNullableValue;
        CanBeNull = canBeNull;
        IsInitOnly = isInitOnly;
        IsRequired = isRequired;
    }

    public string Name { get; }

    public string TagName { get; }

    public string TypeName { get; }

    public ValueShape Value { get; }

    public CollectionKind Collection { get; }

    /// <summary>Gets a value indicating whether the member is a <c>Nullable&lt;T&gt;</c>.</summary>
    public bool IsNullableValue { get; }

    /// <summary>Gets a value indicating whether the member is a reference that may be null (an absent tag).</summary>
    public bool CanBeNull { get; }

    public bool IsInitOnly { get; }

    public bool IsRequired { get; }
}

/// <summary>A type to generate for.</summary>
internal sealed class NbtTypeModel
{
    public NbtTypeModel(string? ns, string name, string fullName, string keyword, IReadOnlyList<MemberModel> members)
    {
        Namespace = ns;
        Name = name;
        FullName = fullName;
        Keyword = keyword;
        Members = members;
    }

    public string? Namespace { get; }

    public string Name { get; }

    public string FullName { get; }

    public string Keyword { get; }

    public IReadOnlyList<MemberModel> Members { get; }
}

using Millrace.Generators;

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
internal sealed record ValueShape(ValueKind Kind, string TypeName, ValueKind Storage, string StorageTypeName);


/// <summary>Whether a member is one value, a <c>List&lt;T&gt;</c> or an array of values.</summary>
internal enum CollectionKind
{
    None,
    List,
    Array,
}

/// <summary>One mapped member.</summary>
internal sealed record MemberModel(string Name, string TagName, string TypeName, ValueShape Value, CollectionKind Collection, bool IsNullableValue, bool CanBeNull, bool IsInitOnly, bool IsRequired);


/// <summary>A type to generate for.</summary>
internal sealed record NbtTypeModel(string? Namespace, string Name, string FullName, string Keyword, EquatableArray<MemberModel> Members);


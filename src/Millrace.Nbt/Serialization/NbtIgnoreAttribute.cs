namespace Millrace.Nbt.Serialization;

/// <summary>Leaves a member of an <see cref="NbtSerializableAttribute"/> type out of its NBT.</summary>
[AttributeUsage(AttributeTargets.Property, Inherited = false)]
public sealed class NbtIgnoreAttribute : Attribute;

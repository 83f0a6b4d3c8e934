namespace Millrace.Nbt.Serialization;

/// <summary>Gives the tag name of a member of an <see cref="NbtSerializableAttribute"/> type, when it differs from the member's name.</summary>
/// <param name="name">The tag name.</param>
[AttributeUsage(AttributeTargets.Property, Inherited = false)]
public sealed class NbtNameAttribute(string name) : Attribute
{
    /// <summary>Gets the tag name.</summary>
    public string Name { get; } = name;
}

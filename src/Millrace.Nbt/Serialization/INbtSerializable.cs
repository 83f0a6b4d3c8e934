using Millrace.Nbt.Binary;

namespace Millrace.Nbt.Serialization;

/// <summary>A type that reads itself from, and writes itself as, an NBT compound. Implemented by the source generator.</summary>
/// <typeparam name="TSelf">The type itself.</typeparam>
public interface INbtSerializable<TSelf>
    where TSelf : INbtSerializable<TSelf>
{
    /// <summary>Reads an instance from the compound the reader is on (its <see cref="NbtToken.StartCompound"/>), up to and including its end.</summary>
    /// <param name="reader">The reader.</param>
    /// <returns>The instance.</returns>
    /// <exception cref="NbtFormatException">A known tag has the wrong type, or the input is malformed.</exception>
    static abstract TSelf ReadNbt(ref NbtPullReader reader);

    /// <summary>Writes the instance's members as named tags, without the compound's start and end.</summary>
    /// <param name="writer">The writer.</param>
    void WriteNbtMembers(ref NbtWriter writer);
}

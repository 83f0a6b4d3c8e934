using Millrace.Nbt.Snbt;

namespace Millrace.Nbt.Tags;

/// <summary>
/// A node of an NBT tree. Tags are mutable, compare by value (deeply, floats by their bits so a round trip
/// always compares equal), and format as compact SNBT.
/// </summary>
public abstract class NbtTag : IEquatable<NbtTag>
{
    private protected NbtTag()
    {
    }

    /// <summary>Gets the tag's type.</summary>
    public abstract NbtTagType Type { get; }

    /// <inheritdoc />
    public abstract bool Equals(NbtTag? other);

    /// <inheritdoc />
    public sealed override bool Equals(object? obj) => obj is NbtTag tag && Equals(tag);

    /// <inheritdoc />
    public abstract override int GetHashCode();

    /// <summary>Formats the tag as compact 1.21.5 SNBT for display; a value SNBT cannot spell (NaN, an empty name) is shown, not refused: <see cref="SnbtWriter.Write"/> writes SNBT to read back.</summary>
    /// <returns>The SNBT text.</returns>
    public override string ToString() => SnbtWriter.Display(this);
}

namespace Millrace.Nbt.Tags;

/// <summary>A tag holding an array of numbers.</summary>
/// <typeparam name="T">The element type.</typeparam>
public abstract class NbtArrayTag<T> : NbtTag
    where T : unmanaged, IEquatable<T>
{
    private T[] _value;

    private protected NbtArrayTag(T[] value) => _value = value ?? throw new ArgumentNullException(nameof(value));

    /// <summary>Gets or sets the elements.</summary>
#pragma warning disable CA1819 // The array is the tag's value; copying it on every access would defeat the point of a lean model.
    public T[] Value
#pragma warning restore CA1819
    {
        get => _value;
        set => _value = value ?? throw new ArgumentNullException(nameof(value));
    }

    /// <inheritdoc />
    public override bool Equals(NbtTag? other) =>
        other is NbtArrayTag<T> tag && tag.Type == Type && tag._value.AsSpan().SequenceEqual(_value);

    /// <inheritdoc />
    public override int GetHashCode()
    {
        var hash = new HashCode();
        hash.Add(Type);
        hash.AddBytes(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_value.AsSpan()));
        return hash.ToHashCode();
    }
}

/// <summary>A byte array tag.</summary>
/// <param name="value">The bytes.</param>
public sealed class NbtByteArray(byte[] value) : NbtArrayTag<byte>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.ByteArray;
}

/// <summary>An int array tag.</summary>
/// <param name="value">The values.</param>
public sealed class NbtIntArray(int[] value) : NbtArrayTag<int>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.IntArray;
}

/// <summary>A long array tag.</summary>
/// <param name="value">The values.</param>
public sealed class NbtLongArray(long[] value) : NbtArrayTag<long>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.LongArray;
}

using System.Runtime.CompilerServices;

namespace Millrace.Nbt.Tags;

/// <summary>A tag holding one number.</summary>
/// <typeparam name="T">The number type: at most 8 bytes.</typeparam>
public abstract class NbtValueTag<T> : NbtTag
    where T : unmanaged
{
    private protected NbtValueTag(T value) => Value = value;

    /// <summary>Gets or sets the value.</summary>
    public T Value { get; set; }

    /// <inheritdoc />
    public override bool Equals(NbtTag? other) =>
        // Bits, not IEEE equality: NaN equals itself and 0.0 differs from -0.0, as a byte-level round trip needs.
        other is NbtValueTag<T> tag && tag.Type == Type && Bits(tag.Value) == Bits(Value);

    /// <inheritdoc />
    public override int GetHashCode() => HashCode.Combine(Type, Bits(Value));

    private static ulong Bits(T value)
    {
        ulong bits = 0;
        Unsafe.WriteUnaligned(ref Unsafe.As<ulong, byte>(ref bits), value);
        return bits;
    }
}

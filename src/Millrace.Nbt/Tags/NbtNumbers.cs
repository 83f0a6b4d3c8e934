namespace Millrace.Nbt.Tags;

/// <summary>A signed 8-bit integer tag (also SNBT's <c>true</c> and <c>false</c>).</summary>
/// <param name="value">The value.</param>
public sealed class NbtByte(sbyte value) : NbtValueTag<sbyte>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.Byte;
}

/// <summary>A signed 16-bit integer tag.</summary>
/// <param name="value">The value.</param>
public sealed class NbtShort(short value) : NbtValueTag<short>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.Short;
}

/// <summary>A signed 32-bit integer tag.</summary>
/// <param name="value">The value.</param>
public sealed class NbtInt(int value) : NbtValueTag<int>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.Int;
}

/// <summary>A signed 64-bit integer tag.</summary>
/// <param name="value">The value.</param>
public sealed class NbtLong(long value) : NbtValueTag<long>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.Long;
}

/// <summary>A 32-bit floating-point tag.</summary>
/// <param name="value">The value.</param>
public sealed class NbtFloat(float value) : NbtValueTag<float>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.Float;
}

/// <summary>A 64-bit floating-point tag.</summary>
/// <param name="value">The value.</param>
public sealed class NbtDouble(double value) : NbtValueTag<double>(value)
{
    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.Double;
}

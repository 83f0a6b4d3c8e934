using System.ComponentModel;
using System.Text;

namespace Millrace.Compact.Serialization;

/// <summary>Byte counts of encoded values, for <see cref="ICompactSerializable{TSelf}.GetFieldsSize"/>; writing needs none (nested values are length-prefixed as they are written).</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public static class CompactSizes
{
    /// <summary>Gets the size of a field key.</summary>
    /// <param name="index">The field index.</param>
    /// <returns>The byte count.</returns>
    public static int OfKey(int index) => Varint.GetByteCount((ulong)(uint)index << 2);

    /// <summary>Gets the size of an unsigned varint.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The byte count.</returns>
    public static int OfVarint(ulong value) => Varint.GetByteCount(value);

    /// <summary>Gets the size of a zigzag varint.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The byte count.</returns>
    public static int OfZigZag(long value) => Varint.GetByteCount(ZigZag.Encode(value));

    /// <summary>Gets the size of a length-delimited value of <paramref name="length"/> bytes.</summary>
    /// <param name="length">The payload length.</param>
    /// <returns>The byte count.</returns>
    public static int OfLengthDelimited(int length) => Varint.GetByteCount((ulong)length) + length;

    /// <summary>Gets the size of a string.</summary>
    /// <param name="text">The string.</param>
    /// <returns>The byte count.</returns>
    public static int OfString(string text) => OfLengthDelimited(Encoding.UTF8.GetByteCount(text));
}

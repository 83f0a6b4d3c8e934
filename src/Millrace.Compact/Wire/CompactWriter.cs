using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace Millrace.Compact.Wire;

/// <summary>Writes compact keys and values into an <see cref="IBufferWriter{T}"/>.</summary>
/// <param name="output">Where the bytes go.</param>
public readonly ref struct CompactWriter(IBufferWriter<byte> output)
{
    /// <summary>Writes a field key: the field index shifted left by 2, or'd with the wire type, as a varint.</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="wireType">The wire type.</param>
    public void WriteKey(int index, WireType wireType) => WriteVarint(((ulong)(uint)index << 2) | (uint)wireType);

    /// <summary>Writes an unsigned varint.</summary>
    /// <param name="value">The value.</param>
    public void WriteVarint(ulong value) => output.Advance(Varint.Write(output.GetSpan(10), value));

    /// <summary>Writes a signed integer as a zigzag varint.</summary>
    /// <param name="value">The value.</param>
    public void WriteSigned(long value) => WriteVarint(ZigZag.Encode(value));

    /// <summary>Writes 4 little-endian bytes.</summary>
    /// <param name="value">The value.</param>
    public void WriteFixed32(uint value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(output.GetSpan(4), value);
        output.Advance(4);
    }

    /// <summary>Writes 8 little-endian bytes.</summary>
    /// <param name="value">The value.</param>
    public void WriteFixed64(ulong value)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(output.GetSpan(8), value);
        output.Advance(8);
    }

    /// <summary>Writes a varint length, then the bytes.</summary>
    /// <param name="bytes">The bytes.</param>
    public void WriteLengthDelimited(ReadOnlySpan<byte> bytes)
    {
        WriteVarint((ulong)bytes.Length);
        bytes.CopyTo(output.GetSpan(bytes.Length));
        output.Advance(bytes.Length);
    }

    /// <summary>Writes bytes as they are: whole fields kept from an earlier read.</summary>
    /// <param name="bytes">The bytes.</param>
    public void WriteRaw(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(output.GetSpan(bytes.Length));
        output.Advance(bytes.Length);
    }

    /// <summary>Writes a string as a varint byte length and its UTF-8 bytes.</summary>
    /// <param name="text">The string.</param>
    public void WriteString(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var length = Encoding.UTF8.GetByteCount(text);
        WriteVarint((ulong)length);
        output.Advance(Encoding.UTF8.GetBytes(text, output.GetSpan(length)));
    }
}

using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace Millrace.Compact.Wire;

/// <summary>Writes compact keys and values into an <see cref="IBufferWriter{T}"/>.</summary>
/// <param name="output">Where the bytes go.</param>
public readonly ref struct CompactWriter(IBufferWriter<byte> output)
{
    // UTF-16 to UTF-8 is at most 3 bytes per char (a surrogate pair is 2 chars for 4 bytes; a lone surrogate
    // becomes U+FFFD, 3 bytes), so 42 chars are at most 126 bytes: a one-byte varint length.
    private const int MaxUtf8BytesPerChar = 3;
    private const int MaxCharsWithOneByteLength = 127 / MaxUtf8BytesPerChar;

    /// <summary>Writes a field key: the field index shifted left by 2, or'd with the wire type, as a varint.</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="wireType">The wire type.</param>
    public void WriteKey(int index, WireType wireType) => WriteVarint(Key(index, wireType));

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

    /// <summary>Writes a field key and a varint value with one request for buffer space.</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="value">The value.</param>
    public void WriteVarintField(int index, ulong value)
    {
        var span = output.GetSpan(2 * Varint.MaxLength64);
        var written = Varint.Write(span, Key(index, WireType.Varint));
        written += Varint.Write(span[written..], value);
        output.Advance(written);
    }

    /// <summary>Writes a field key and a zigzag-encoded signed value with one request for buffer space.</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="value">The value.</param>
    public void WriteSignedField(int index, long value) => WriteVarintField(index, ZigZag.Encode(value));

    /// <summary>Writes a string as a varint byte length and its UTF-8 bytes.</summary>
    /// <param name="text">The string.</param>
    public void WriteString(string text) => WriteString(text, hasKey: false, key: 0);

    /// <summary>Writes a field key and a string (varint byte length, UTF-8 bytes).</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="text">The string.</param>
    public void WriteStringField(int index, string text) => WriteString(text, hasKey: true, Key(index, WireType.LengthDelimited));

    private static ulong Key(int index, WireType wireType) => ((ulong)(uint)index << 2) | (uint)wireType;

    private void WriteString(string text, bool hasKey, ulong key)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (text.Length > MaxCharsWithOneByteLength)
        {
            if (hasKey)
            {
                WriteVarint(key);
            }

            var length = Encoding.UTF8.GetByteCount(text);
            WriteVarint((ulong)length);
            output.Advance(Encoding.UTF8.GetBytes(text, output.GetSpan(length)));
            return;
        }

        // A short string's UTF-8 length fits in one varint byte, so it is encoded straight after a reserved
        // length byte: no separate byte count, and one request for space for key, length and bytes together.
        var span = output.GetSpan(Varint.MaxLength64 + 1 + (text.Length * MaxUtf8BytesPerChar));
        var keyLength = hasKey ? Varint.Write(span, key) : 0;
        var byteCount = Encoding.UTF8.GetBytes(text, span[(keyLength + 1)..]);
        span[keyLength] = (byte)byteCount;
        output.Advance(keyLength + 1 + byteCount);
    }
}

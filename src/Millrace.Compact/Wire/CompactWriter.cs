using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace Millrace.Compact.Wire;

/// <summary>
/// Writes compact keys and values into an <see cref="IBufferWriter{T}"/> through Core's <see cref="BufferWriterCursor"/>:
/// it fills the span it was given and hands the bytes on only when the span runs out or on <see cref="Flush"/>.
/// </summary>
/// <remarks>
/// A mutable <see langword="ref struct"/>: pass it by <see langword="ref"/> (generated <c>WriteFields</c> take it so) and
/// call <see cref="Flush"/> after the last value, or the buffer writer never sees the bytes.
/// </remarks>
public ref struct CompactWriter
{
    // UTF-16 to UTF-8 is at most 3 bytes per char (a surrogate pair is 2 chars for 4 bytes), so 42 chars are at most
    // 126 bytes: a one-byte varint length.
    private const int MaxUtf8BytesPerChar = 3;

    // A lone surrogate has no UTF-8: refused (ArgumentException), where the default encoder would write U+FFFD and a
    // reader would get another string than the one written.
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);
    private const int MaxCharsWithOneByteLength = 127 / MaxUtf8BytesPerChar;

    private BufferWriterCursor _cursor;

    /// <summary>Initializes a writer.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <exception cref="ArgumentNullException"><paramref name="output"/> is <see langword="null"/>.</exception>
    public CompactWriter(IBufferWriter<byte> output) => _cursor = new BufferWriterCursor(output);

    /// <summary>Hands the buffered bytes to the buffer writer. Call it once the last value is written.</summary>
    public void Flush() => _cursor.Flush();

    /// <summary>Writes a field key: the field index shifted left by 2, or'd with the wire type, as a varint.</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="wireType">The wire type.</param>
    public void WriteKey(int index, WireType wireType) => WriteVarint(Key(index, wireType));

    /// <summary>Writes an unsigned varint.</summary>
    /// <param name="value">The value.</param>
    public void WriteVarint(ulong value) => _cursor.WriteVarint(value);

    /// <summary>Writes a signed integer as a zigzag varint.</summary>
    /// <param name="value">The value.</param>
    public void WriteSigned(long value) => WriteVarint(ZigZag.Encode(value));

    /// <summary>Writes 4 little-endian bytes.</summary>
    /// <param name="value">The value.</param>
    public void WriteFixed32(uint value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(_cursor.GetSpan(4), value);
        _cursor.Advance(4);
    }

    /// <summary>Writes 8 little-endian bytes.</summary>
    /// <param name="value">The value.</param>
    public void WriteFixed64(ulong value)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(_cursor.GetSpan(8), value);
        _cursor.Advance(8);
    }

    /// <summary>Writes a varint length, then the bytes.</summary>
    /// <param name="bytes">The bytes.</param>
    public void WriteLengthDelimited(scoped ReadOnlySpan<byte> bytes)
    {
        WriteVarint((ulong)bytes.Length);
        _cursor.Write(bytes);
    }

    /// <summary>
    /// Starts a length-delimited value whose length is known only once it is written (a nested record, a list, a map):
    /// one byte is reserved for the length, which <see cref="EndLengthDelimited"/> writes, so the value is walked once.
    /// </summary>
    /// <returns>The reserved length, to pass to <see cref="EndLengthDelimited"/>. They nest, and end innermost first.</returns>
    public LengthPrefix BeginLengthDelimited() => _cursor.BeginLengthPrefix();

    /// <summary>Ends a length-delimited value: its length goes in the byte <see cref="BeginLengthDelimited"/> reserved (the value moves up when it needs more).</summary>
    /// <param name="prefix">What <see cref="BeginLengthDelimited"/> returned.</param>
    public void EndLengthDelimited(LengthPrefix prefix) => _cursor.EndLengthPrefix(prefix);

    /// <summary>Writes bytes as they are: whole fields kept from an earlier read.</summary>
    /// <param name="bytes">The bytes.</param>
    public void WriteRaw(scoped ReadOnlySpan<byte> bytes) => _cursor.Write(bytes);

    /// <summary>Writes a field key and a varint value with one request for buffer space.</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="value">The value.</param>
    public void WriteVarintField(int index, ulong value)
    {
        var span = _cursor.GetSpan(2 * Varint.MaxLength64);
        var written = Varint.Write(span, Key(index, WireType.Varint));
        written += Varint.Write(span[written..], value);
        _cursor.Advance(written);
    }

    /// <summary>Writes a field key and a zigzag-encoded signed value with one request for buffer space.</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="value">The value.</param>
    public void WriteSignedField(int index, long value) => WriteVarintField(index, ZigZag.Encode(value));

    /// <summary>Writes a string as a varint byte length and its UTF-8 bytes.</summary>
    /// <param name="text">The string.</param>
    /// <exception cref="ArgumentException">The string holds a lone surrogate, which UTF-8 cannot carry.</exception>
    public void WriteString(string text) => WriteString(text, hasKey: false, key: 0);

    /// <summary>Writes a field key and a string (varint byte length, UTF-8 bytes).</summary>
    /// <param name="index">The field index, at least 1.</param>
    /// <param name="text">The string.</param>
    /// <exception cref="ArgumentException">The string holds a lone surrogate, which UTF-8 cannot carry.</exception>
    public void WriteStringField(int index, string text) => WriteString(text, hasKey: true, Key(index, WireType.LengthDelimited));

    /// <summary>A field key: the index, then the wire type in the low two bits.</summary>
    internal static ulong Key(int index, WireType wireType) => ((ulong)(uint)index << 2) | (uint)wireType;

    private void WriteString(string text, bool hasKey, ulong key)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (text.Length > MaxCharsWithOneByteLength)
        {
            if (hasKey)
            {
                WriteVarint(key);
            }

            var length = StrictUtf8.GetByteCount(text);
            WriteVarint((ulong)length);
            _cursor.Advance(StrictUtf8.GetBytes(text, _cursor.GetSpan(length)));
            return;
        }

        // A short string's UTF-8 length fits in one varint byte, so it is encoded straight after a reserved
        // length byte: no separate byte count, and one request for space for key, length and bytes together.
        var span = _cursor.GetSpan(Varint.MaxLength64 + 1 + (text.Length * MaxUtf8BytesPerChar));
        var keyLength = hasKey ? Varint.Write(span, key) : 0;
        var destination = span[(keyLength + 1)..];

        // Mostly ASCII (names, keys, codes): narrowing it skips the UTF-8 encoder's per-call overhead; the encoder takes
        // over at the first other char, whose bytes follow the ASCII run's one byte a char.
        if (Ascii.FromUtf16(text, destination, out var byteCount) != OperationStatus.Done)
        {
            byteCount += StrictUtf8.GetBytes(text.AsSpan(byteCount), destination[byteCount..]);
        }

        span[keyLength] = (byte)byteCount;
        _cursor.Advance(keyLength + 1 + byteCount);
    }
}

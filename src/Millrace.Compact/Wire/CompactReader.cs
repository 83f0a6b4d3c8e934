using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace Millrace.Compact.Wire;

/// <summary>
/// Reads compact keys and values from a span, checking every length against the bytes that remain before anything
/// is allocated. Offsets in errors count from the start of the outermost body, also inside nested payloads.
/// </summary>
public ref struct CompactReader
{
    // Validates while it decodes, so a string is read in one pass and malformed bytes never become U+FFFD.
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    // The bounds checks live in Core's cursor; this flavour adds the compact wire shapes and turns the cursor's
    // outcomes into CompactFormatExceptions with the compact codes.
    private SpanCursor _cursor;

    /// <summary>Initializes a reader over a body.</summary>
    /// <param name="data">The bytes.</param>
    /// <param name="baseOffset">The offset of <paramref name="data"/>'s first byte in the outermost body, for errors.</param>
    public CompactReader(ReadOnlySpan<byte> data, int baseOffset = 0) => _cursor = new SpanCursor(data, baseOffset);

    /// <summary>Gets a value indicating whether every byte has been read.</summary>
    public readonly bool End => _cursor.End;

    /// <summary>Gets the offset of the next byte in the outermost body.</summary>
    public readonly int Offset => _cursor.Offset;

    /// <summary>Gets the number of bytes left.</summary>
    public readonly int Remaining => _cursor.Remaining;

    /// <summary>Gets the bytes read since <paramref name="offset"/> (an <see cref="Offset"/> taken earlier).</summary>
    /// <param name="offset">An earlier offset of this reader.</param>
    /// <returns>The bytes.</returns>
    public readonly ReadOnlySpan<byte> Since(int offset) => _cursor.Since(offset);

    /// <summary>Reads a field key.</summary>
    /// <param name="index">The field index.</param>
    /// <param name="wireType">The wire type.</param>
    /// <returns><see langword="false"/> at the end of the body.</returns>
    /// <exception cref="CompactFormatException">The key is malformed or its index is 0.</exception>
    public bool TryReadKey(out int index, out WireType wireType)
    {
        if (End)
        {
            index = 0;
            wireType = default;
            return false;
        }

        var offset = Offset;
        var key = ReadVarint();
        if (key >> 2 is 0 or > int.MaxValue)
        {
            CompactThrow.InvalidFieldIndex(key >> 2, offset);
        }

        index = (int)(key >> 2);
        wireType = (WireType)(key & 3);
        return true;
    }

    /// <summary>Reads an unsigned varint.</summary>
    /// <returns>The value.</returns>
    public ulong ReadVarint()
    {
        var start = Offset;
        var status = _cursor.TryReadVarint(out ulong value);
        if (status != OperationStatus.Done)
        {
            CompactThrow.BadVarint(status, Offset);
        }

        // The shortest form only (docs/compact-format.md, varints): a value that fits in fewer bytes than it took ends
        // with a byte of 00, and would give one value two encodings.
        var used = Offset - start;
        if (used > 1 && value < 1UL << (7 * (used - 1)))
        {
            CompactThrow.OverlongVarint(start);
        }

        return value;
    }

    /// <summary>Reads a zigzag varint.</summary>
    /// <returns>The value.</returns>
    public long ReadSigned() => ZigZag.Decode(ReadVarint());

    /// <summary>Reads 4 little-endian bytes.</summary>
    /// <returns>The value.</returns>
    public uint ReadFixed32() => BinaryPrimitives.ReadUInt32LittleEndian(Take(4));

    /// <summary>Reads 8 little-endian bytes.</summary>
    /// <returns>The value.</returns>
    public ulong ReadFixed64() => BinaryPrimitives.ReadUInt64LittleEndian(Take(8));

    /// <summary>Reads a varint length and that many bytes.</summary>
    /// <param name="start">The offset of the first returned byte in the outermost body.</param>
    /// <returns>The bytes.</returns>
    public ReadOnlySpan<byte> ReadLengthDelimited(out int start)
    {
        var offset = Offset;
        var length = ReadVarint();
        if (!_cursor.CountFits(length, int.MaxValue, 1))
        {
            CompactThrow.LengthBeyondInput(length, Remaining, offset);
        }

        start = Offset;
        return _cursor.Take((int)length);
    }

    /// <summary>Reads a UTF-8 string that names something, such as a map's key: a short ASCII one that repeats comes from <see cref="NameCache"/>, one string for every read of it, the rest as <see cref="ReadString"/> reads them.</summary>
    /// <param name="maxLength">The longest string allowed, in bytes.</param>
    /// <returns>The string.</returns>
    public string ReadName(int maxLength)
    {
        var start = _cursor;
        var length = ReadVarint();
        if (length <= NameCache.MaxLength && (int)length <= maxLength && _cursor.CanTake((int)length)
            && NameCache.Get(_cursor.Take((int)length)) is { } name)
        {
            return name;
        }

        // Read again from the length, so that what ReadString refuses is refused at the same offset with the same error.
        _cursor = start;
        return ReadString(maxLength);
    }

    /// <summary>Reads a UTF-8 string.</summary>
    /// <param name="maxLength">The longest string allowed, in bytes.</param>
    /// <returns>The string.</returns>
    public string ReadString(int maxLength)
    {
        // A length past the limit is located at the varint that declares it, as a count past the limit is.
        var offset = Offset;
        var bytes = ReadLengthDelimited(out var start);
        if (bytes.Length > maxLength)
        {
            CompactThrow.StringTooLong(bytes.Length, maxLength, offset);
        }

        // Names, keys and codes are mostly ASCII: checking that and widening is one cheap pass each, where the strict
        // UTF-8 decoder counts, validates and transcodes.
        if (Ascii.IsValid(bytes))
        {
            return Encoding.Latin1.GetString(bytes);
        }

        string? text = null;
        try
        {
            text = StrictUtf8.GetString(bytes);
        }
        catch (DecoderFallbackException)
        {
            CompactThrow.BadUtf8(start);
        }

        return text;
    }

    /// <summary>Reads an element count and checks it against the limit and the bytes that remain.</summary>
    /// <param name="maxCount">The most elements allowed.</param>
    /// <param name="minimumElementSize">The fewest bytes one element takes.</param>
    /// <returns>The count.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxCount"/> or <paramref name="minimumElementSize"/> is negative.</exception>
    public int ReadCount(int maxCount, int minimumElementSize)
    {
        var offset = Offset;
        var count = ReadVarint();
        if (!_cursor.CountFits(count, maxCount, minimumElementSize))
        {
            // The bytes that remain are checked before the limit, as for a string's length: a count its elements cannot
            // fill is bad-length, whatever the limit (docs/compact-format.md, Limits on read).
            var beyondInput = minimumElementSize > 0 && count > (ulong)(Remaining / minimumElementSize);
            CompactThrow.BadCount(beyondInput ? SpanCursorStatus.BeyondInput : SpanCursorStatus.OverLimit, count, maxCount, Remaining, offset);
        }

        return (int)count;
    }

    /// <summary>Skips a value of <paramref name="wireType"/>.</summary>
    /// <param name="wireType">The value's wire type.</param>
    public void Skip(WireType wireType)
    {
        switch (wireType)
        {
            case WireType.Varint:
                ReadVarint();
                break;
            case WireType.Fixed32:
                Take(4);
                break;
            case WireType.Fixed64:
                Take(8);
                break;
            default:
                ReadLengthDelimited(out _);
                break;
        }
    }

    private ReadOnlySpan<byte> Take(int count)
    {
        if (!_cursor.CanTake(count))
        {
            CompactThrow.Truncated(count, Offset);
        }

        return _cursor.Take(count);
    }
}

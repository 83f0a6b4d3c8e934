using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Text;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Reads NBT primitives of one flavour from a span, checking every length against the bytes that remain
/// before anything is allocated. Every failure is an <see cref="NbtFormatException"/> at the offending offset.
/// </summary>
/// <remarks>
/// The NBT flavour of Core's <see cref="SpanCursor"/>: the cursor does the bounds checks and reports, this adds byte
/// order, zigzag varints and strings per <see cref="NbtFormat"/> and throws the NBT errors through <see cref="NbtThrow"/>.
/// </remarks>
internal ref struct NbtCursor
{
    private SpanCursor _cursor;
    private readonly NbtFormat _format;

    public NbtCursor(ReadOnlySpan<byte> data, NbtFormat format, int position = 0)
    {
        _cursor = new SpanCursor(data, position: position);
        _format = format;
    }

    public readonly int Position => _cursor.Position;

    public readonly int Remaining => _cursor.Remaining;

    public readonly NbtFormat Format => _format;

    /// <summary>Gets whether the flavour's fixed-width numbers and lengths are little-endian (Bedrock's).</summary>
    public readonly bool IsLittleEndian => _format is NbtFormat.Bedrock or NbtFormat.BedrockNetwork;

    private readonly bool Varints => _format == NbtFormat.BedrockNetwork;

    public NbtTagType ReadTagType()
    {
        var offset = Position;
        var id = ReadByte();
        if (id > (byte)NbtTagType.LongArray)
        {
            NbtThrow.InvalidTagType(id, offset);
        }

        return (NbtTagType)id;
    }

    public byte ReadByte()
    {
        if (!_cursor.CanTake(1))
        {
            NbtThrow.Truncated(1, Position);
        }

        return _cursor.ReadByte();
    }

    public short ReadInt16()
    {
        var bytes = Take(2);
        return IsLittleEndian ? BinaryPrimitives.ReadInt16LittleEndian(bytes) : BinaryPrimitives.ReadInt16BigEndian(bytes);
    }

    public int ReadInt32()
    {
        if (Varints)
        {
            return ZigZag.Decode(ReadVarUInt32());
        }

        var bytes = Take(4);
        return IsLittleEndian ? BinaryPrimitives.ReadInt32LittleEndian(bytes) : BinaryPrimitives.ReadInt32BigEndian(bytes);
    }

    public long ReadInt64()
    {
        if (Varints)
        {
            return ZigZag.Decode(ReadVarUInt64());
        }

        var bytes = Take(8);
        return IsLittleEndian ? BinaryPrimitives.ReadInt64LittleEndian(bytes) : BinaryPrimitives.ReadInt64BigEndian(bytes);
    }

    public float ReadSingle()
    {
        var bytes = Take(4);
        return IsLittleEndian ? BinaryPrimitives.ReadSingleLittleEndian(bytes) : BinaryPrimitives.ReadSingleBigEndian(bytes);
    }

    public double ReadDouble()
    {
        var bytes = Take(8);
        return IsLittleEndian ? BinaryPrimitives.ReadDoubleLittleEndian(bytes) : BinaryPrimitives.ReadDoubleBigEndian(bytes);
    }

    /// <summary>Reads a list or array length and checks that <paramref name="minimumElementSize"/> bytes per element remain.</summary>
    public int ReadLength(int minimumElementSize)
    {
        var offset = Position;
        var length = ReadInt32();
        if (length < 0 || !_cursor.CountFits((ulong)length, int.MaxValue, minimumElementSize))
        {
            NbtThrow.BadLength(_cursor.CheckCount(length, int.MaxValue, minimumElementSize), length, Remaining, offset);
        }

        return length;
    }

    public string ReadString()
    {
        var bytes = ReadStringBytes();
        return Decode(bytes, Position - bytes.Length);
    }

    /// <summary>Reads a string's length and returns its raw bytes, undecoded.</summary>
    public ReadOnlySpan<byte> ReadStringBytes()
    {
        var offset = Position;
        int length = Varints ? (int)Math.Min(ReadVarUInt32(), int.MaxValue) : (ushort)ReadInt16();
        if (!_cursor.CanTake(length))
        {
            NbtThrow.BadLength(SpanCursorStatus.BeyondInput, length, Remaining, offset);
        }

        return _cursor.Take(length);
    }

    /// <summary>Decodes string bytes found at <paramref name="offset"/>: Modified UTF-8 for Java, UTF-8 for Bedrock.</summary>
    public readonly string Decode(ReadOnlySpan<byte> bytes, int offset)
    {
        if (_format is NbtFormat.Java or NbtFormat.JavaNetwork)
        {
            if (!ModifiedUtf8.TryDecode(bytes, out var text, out var error))
            {
                NbtThrow.BadString("Modified UTF-8", offset + error);
            }

            return text;
        }

        if (!System.Text.Unicode.Utf8.IsValid(bytes))
        {
            NbtThrow.BadString("UTF-8", offset);
        }

        return Encoding.UTF8.GetString(bytes);
    }

    /// <summary>Gets whether <paramref name="count"/> more bytes remain; the JIT drops the check of an <see cref="Advance"/> by them that follows with nothing stored between.</summary>
    public readonly bool CanTake(int count) => _cursor.CanTake(count);

    /// <summary>Moves past <paramref name="count"/> bytes, as <see cref="Take"/> without making their span.</summary>
    public void Advance(int count)
    {
        if (!_cursor.CanTake(count))
        {
            NbtThrow.Truncated(count, Position);
        }

        _cursor.Advance(count);
    }

    public ReadOnlySpan<byte> Take(int count)
    {
        if (!_cursor.CanTake(count))
        {
            NbtThrow.Truncated(count, Position);
        }

        return _cursor.Take(count);
    }

    /// <summary>Reads int array elements: fixed-width, or zigzag varints on the Bedrock network.</summary>
    public void ReadInt32s(Span<int> destination)
    {
        if (Varints)
        {
            for (var i = 0; i < destination.Length; i++)
            {
                destination[i] = ReadInt32();
            }

            return;
        }

        var bytes = Take(destination.Length * 4);
        for (var i = 0; i < destination.Length; i++)
        {
            var element = bytes.Slice(i * 4, 4);
            destination[i] = IsLittleEndian ? BinaryPrimitives.ReadInt32LittleEndian(element) : BinaryPrimitives.ReadInt32BigEndian(element);
        }
    }

    /// <summary>Reads long array elements: fixed-width, or zigzag varints on the Bedrock network.</summary>
    public void ReadInt64s(Span<long> destination)
    {
        if (Varints)
        {
            for (var i = 0; i < destination.Length; i++)
            {
                destination[i] = ReadInt64();
            }

            return;
        }

        var bytes = Take(destination.Length * 8);
        for (var i = 0; i < destination.Length; i++)
        {
            var element = bytes.Slice(i * 8, 8);
            destination[i] = IsLittleEndian ? BinaryPrimitives.ReadInt64LittleEndian(element) : BinaryPrimitives.ReadInt64BigEndian(element);
        }
    }

    /// <summary>The fewest bytes one element of <paramref name="type"/> can occupy, for length checks.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly int MinimumSize(NbtTagType type) => type switch
    {
        NbtTagType.End or NbtTagType.Byte or NbtTagType.Compound => 1,
        NbtTagType.Short => 2,
        NbtTagType.Int or NbtTagType.Float => Varints && type == NbtTagType.Int ? 1 : 4,
        NbtTagType.Long or NbtTagType.Double => Varints && type == NbtTagType.Long ? 1 : 8,
        NbtTagType.String => Varints ? 1 : 2,
        _ => Varints ? 1 : 4,
    };

    private uint ReadVarUInt32()
    {
        ExpectVarint(_cursor.TryReadVarint(out uint value));
        return value;
    }

    private ulong ReadVarUInt64()
    {
        ExpectVarint(_cursor.TryReadVarint(out ulong value));
        return value;
    }

    private readonly void ExpectVarint(OperationStatus status)
    {
        if (status != OperationStatus.Done)
        {
            NbtThrow.BadVarint(status, Position, Position + Remaining);
        }
    }
}

using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Writes NBT of one flavour straight into an <see cref="IBufferWriter{T}"/>, tag by tag or whole trees, through
/// Core's <see cref="BufferWriterCursor"/>: it fills the span it was given and hands the bytes on only when the span
/// runs out or on <see cref="Flush"/>, so a reused buffer writer sees no allocation. Named writes (a non-null name) write a tag header, as inside a compound or for the
/// root (nameless in the Java network flavour); unnamed writes write list elements.
/// </summary>
public ref struct NbtWriter
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    // The most bytes of a number array asked for at once, so a large array never needs one huge span.
    private const int ArrayRun = 16 * 1024;
    private const int ShortText = 32;

    private readonly NbtFormat _format;
    private BufferWriterCursor _cursor;

    private bool _rootWritten;
    private int _depth;

    /// <summary>Initializes a writer.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <param name="format">The flavour.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="format"/> is not one of <see cref="NbtFormat"/>'s.</exception>
    public NbtWriter(IBufferWriter<byte> output, NbtFormat format = NbtFormat.Java)
    {
        ArgumentNullException.ThrowIfNull(output);
        _cursor = new BufferWriterCursor(output);
        _format = NbtThrow.DefinedFormat(format, nameof(format));
    }

    private readonly bool LittleEndian => _format is NbtFormat.Bedrock or NbtFormat.BedrockNetwork;

    private readonly bool Varints => _format == NbtFormat.BedrockNetwork;

    /// <summary>Writes a whole tree as the root and flushes.</summary>
    /// <param name="name">The root's name (ignored in the Java network flavour).</param>
    /// <param name="root">The root tag.</param>
    public void WriteDocument(string? name, NbtTag root)
    {
        ArgumentNullException.ThrowIfNull(root);
        WriteTag(name ?? string.Empty, root);
        Flush();
    }

    /// <summary>Writes a tag and everything under it.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="tag">The tag.</param>
    public void WriteTag(string? name, NbtTag tag)
    {
        ArgumentNullException.ThrowIfNull(tag);
        Header(name, tag.Type);

        // Each write of a tree starts at the top of its nesting, checked for stack, even after a write that threw.
        _depth = 0;
        PutPayload(tag);
    }

    /// <summary>Writes a byte tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The value.</param>
    public void WriteByte(string? name, sbyte value)
    {
        Header(name, NbtTagType.Byte);
        PutByte((byte)value);
    }

    /// <summary>Writes a short tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The value.</param>
    public void WriteShort(string? name, short value)
    {
        Header(name, NbtTagType.Short);
        PutInt16(value);
    }

    /// <summary>Writes an int tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The value.</param>
    public void WriteInt(string? name, int value)
    {
        Header(name, NbtTagType.Int);
        PutInt32(value);
    }

    /// <summary>Writes a long tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The value.</param>
    public void WriteLong(string? name, long value)
    {
        Header(name, NbtTagType.Long);
        PutInt64(value);
    }

    /// <summary>Writes a float tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The value.</param>
    public void WriteFloat(string? name, float value)
    {
        Header(name, NbtTagType.Float);
        PutFixed32(BitConverter.SingleToInt32Bits(value));
    }

    /// <summary>Writes a double tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The value.</param>
    public void WriteDouble(string? name, double value)
    {
        Header(name, NbtTagType.Double);
        PutFixed64(BitConverter.DoubleToInt64Bits(value));
    }

    /// <summary>Writes a string tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The value.</param>
    public void WriteString(string? name, string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        Header(name, NbtTagType.String);
        PutString(value);
    }

    /// <summary>Writes a byte array tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The bytes.</param>
    public void WriteByteArray(string? name, ReadOnlySpan<byte> value)
    {
        Header(name, NbtTagType.ByteArray);
        PutInt32(value.Length);
        PutBytes(value);
    }

    /// <summary>Writes an int array tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The values.</param>
    public void WriteIntArray(string? name, ReadOnlySpan<int> value)
    {
        Header(name, NbtTagType.IntArray);
        PutInt32(value.Length);
        PutInt32s(value);
    }

    /// <summary>Writes a long array tag.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="value">The values.</param>
    public void WriteLongArray(string? name, ReadOnlySpan<long> value)
    {
        Header(name, NbtTagType.LongArray);
        PutInt32(value.Length);
        PutInt64s(value);
    }

    /// <summary>Starts a compound; write its named tags, then <see cref="WriteEndCompound"/>.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    public void WriteStartCompound(string? name)
    {
        Header(name, NbtTagType.Compound);
    }

    /// <summary>Ends the innermost compound.</summary>
    public void WriteEndCompound() => PutByte((byte)NbtTagType.End);

    /// <summary>Starts a list; write exactly <paramref name="count"/> unnamed elements of <paramref name="elementType"/> after it.</summary>
    /// <param name="name">Its name, or <see langword="null"/> for a list element.</param>
    /// <param name="elementType">The elements' type; an empty list declares it too (<see cref="NbtTagType.End"/> when it has none).</param>
    /// <param name="count">The number of elements.</param>
    public void WriteStartList(string? name, NbtTagType elementType, int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (elementType == NbtTagType.End && count > 0)
        {
            throw new ArgumentException("A list of End tags cannot have elements.", nameof(elementType));
        }

        Header(name, NbtTagType.List);
        // An empty list keeps the type it declares, so a file read and written again has the same bytes.
        PutByte((byte)elementType);
        PutInt32(count);
    }

    /// <summary>Hands the buffered bytes to the buffer writer.</summary>
    public void Flush() => _cursor.Flush();

    private void Header(string? name, NbtTagType type)
    {
        if (name is null)
        {
            return;
        }

        PutByte((byte)type);
        if (_rootWritten || _format != NbtFormat.JavaNetwork)
        {
            PutString(name);
        }

        _rootWritten = true;
    }

    private void PutPayload(NbtTag tag) => PutPayload(tag, TypeOf(tag));

    // Dispatches on the type the caller has already read (a compound writes it before the name), one jump where type
    // patterns tested the classes in turn; the hierarchy is closed and each type is one sealed class, so the casts hold.
    private void PutPayload(NbtTag tag, NbtTagType type)
    {
        switch (type)
        {
            case NbtTagType.Int when Varints:
                PutVarint(ZigZag.Encode(Unsafe.As<NbtInt>(tag).Value));
                break;
            case NbtTagType.Long when Varints:
                PutVarint(ZigZag.Encode(Unsafe.As<NbtLong>(tag).Value));
                break;
            case >= NbtTagType.Byte and <= NbtTagType.Double:
                _cursor.Advance(WriteNumber(_cursor.GetSpan(sizeof(long)), tag, type));
                break;
            case NbtTagType.ByteArray:
                var bytes = Unsafe.As<NbtByteArray>(tag).Value;
                PutInt32(bytes.Length);
                PutBytes(bytes);
                break;
            case NbtTagType.String:
                PutString(Unsafe.As<NbtString>(tag).Value);
                break;
            case NbtTagType.IntArray:
                var ints = Unsafe.As<NbtIntArray>(tag).Value;
                PutInt32(ints.Length);
                PutInt32s(ints);
                break;
            case NbtTagType.LongArray:
                var longs = Unsafe.As<NbtLongArray>(tag).Value;
                PutInt32(longs.Length);
                PutInt64s(longs);
                break;
            case NbtTagType.List:
                Nest();
                PutList(Unsafe.As<NbtList>(tag));
                _depth--;
                break;
            case NbtTagType.Compound:
                Nest();
                PutCompound(Unsafe.As<NbtCompound>(tag));
                _depth--;
                break;
        }
    }

    // A tag's type without the virtual call to Type, whose target changes from tag to tag: each test compares the
    // object's class with one sealed class, most frequent first (player files and chunks are mostly bytes, shorts,
    // strings and compounds).
    private static NbtTagType TypeOf(NbtTag tag) => tag switch
    {
        NbtByte => NbtTagType.Byte,
        NbtShort => NbtTagType.Short,
        NbtString => NbtTagType.String,
        NbtCompound => NbtTagType.Compound,
        NbtInt => NbtTagType.Int,
        NbtList => NbtTagType.List,
        NbtDouble => NbtTagType.Double,
        NbtFloat => NbtTagType.Float,
        NbtLong => NbtTagType.Long,
        _ => tag.Type,
    };

    // Out of PutPayload, which every number goes through, so the number's path stays small.
    private void PutCompound(NbtCompound compound)
    {
        foreach (var (name, child) in compound.Tags)
        {
            var childType = TypeOf(child);
            if (!TryPutEntry(name, child, childType))
            {
                // TryPutEntry has found the name not to be short ASCII: it goes to the encoders at once.
                PutByte((byte)childType);
                PutEncodedString(name);
                PutPayload(child, childType);
            }
        }

        PutByte((byte)NbtTagType.End);
    }

    // An entry whose name is short ASCII goes into one span: its type, its name and, for a number, its value, one request
    // to the cursor and one advance where writing them part by part made three of each.
    private bool TryPutEntry(string name, NbtTag tag, NbtTagType type)
    {
        if (name.Length > ShortText || Varints)
        {
            return false;
        }

        var span = _cursor.GetSpan(3 + name.Length + sizeof(long));
        if (!TryWriteShortAscii(span[1..], name))
        {
            return false;
        }

        span[0] = (byte)type;
        var header = 3 + name.Length;
        if (type is >= NbtTagType.Byte and <= NbtTagType.Double)
        {
            _cursor.Advance(header + WriteNumber(span[header..], tag, type));
            return true;
        }

        _cursor.Advance(header);
        PutPayload(tag, type);
        return true;
    }

    // Writes a number's fixed-width payload (every flavour's but the varint ints of Bedrock's network flavour) and
    // returns its size.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly int WriteNumber(Span<byte> destination, NbtTag tag, NbtTagType type)
    {
        switch (type)
        {
            case NbtTagType.Byte:
                destination[0] = (byte)Unsafe.As<NbtByte>(tag).Value;
                return sizeof(byte);
            case NbtTagType.Short:
                WriteInt16(destination, Unsafe.As<NbtShort>(tag).Value);
                return sizeof(short);
            case NbtTagType.Int:
                WriteFixed32(destination, Unsafe.As<NbtInt>(tag).Value);
                return sizeof(int);
            case NbtTagType.Long:
                WriteFixed64(destination, Unsafe.As<NbtLong>(tag).Value);
                return sizeof(long);
            case NbtTagType.Float:
                WriteFixed32(destination, BitConverter.SingleToInt32Bits(Unsafe.As<NbtFloat>(tag).Value));
                return sizeof(float);
            default:
                WriteFixed64(destination, BitConverter.DoubleToInt64Bits(Unsafe.As<NbtDouble>(tag).Value));
                return sizeof(double);
        }
    }

    // A tree built by hand can nest deeper than any reader allows: refuse it rather than overflow the stack.
    private void Nest()
    {
        if (!StackRoom.Enough(_depth++))
        {
            throw new ArgumentException("The tree nests too deeply to write on this thread's stack.");
        }
    }

    private void PutList(NbtList list)
    {
        if (HeterogeneousLists.NeedsWrapping(list))
        {
            PutByte((byte)NbtTagType.Compound);
            PutInt32(list.Count);
            foreach (var element in list)
            {
                PutPayload(HeterogeneousLists.Wrap(element));
            }

            return;
        }

        PutByte((byte)list.ElementType);
        PutInt32(list.Count);
        foreach (var element in list.Items)
        {
            PutPayload(element);
        }
    }

    private void PutByte(byte value) => _cursor.WriteByte(value);

    private void PutInt16(short value)
    {
        WriteInt16(_cursor.GetSpan(2), value);
        _cursor.Advance(2);
    }

    private readonly void WriteInt16(Span<byte> destination, short value)
    {
        if (LittleEndian)
        {
            BinaryPrimitives.WriteInt16LittleEndian(destination, value);
        }
        else
        {
            BinaryPrimitives.WriteInt16BigEndian(destination, value);
        }
    }

    private void PutInt32(int value)
    {
        if (Varints)
        {
            PutVarint(ZigZag.Encode(value));
            return;
        }

        PutFixed32(value);
    }

    private void PutInt64(long value)
    {
        if (Varints)
        {
            PutVarint(ZigZag.Encode(value));
            return;
        }

        PutFixed64(value);
    }

    private void PutFixed32(int value)
    {
        WriteFixed32(_cursor.GetSpan(4), value);
        _cursor.Advance(4);
    }

    private readonly void WriteFixed32(Span<byte> destination, int value)
    {
        if (LittleEndian)
        {
            BinaryPrimitives.WriteInt32LittleEndian(destination, value);
        }
        else
        {
            BinaryPrimitives.WriteInt32BigEndian(destination, value);
        }
    }

    private void PutFixed64(long value)
    {
        WriteFixed64(_cursor.GetSpan(8), value);
        _cursor.Advance(8);
    }

    private readonly void WriteFixed64(Span<byte> destination, long value)
    {
        if (LittleEndian)
        {
            BinaryPrimitives.WriteInt64LittleEndian(destination, value);
        }
        else
        {
            BinaryPrimitives.WriteInt64BigEndian(destination, value);
        }
    }

    private void PutVarint(ulong value)
    {
        _cursor.WriteVarint(value);
    }

    private void PutBytes(ReadOnlySpan<byte> bytes) => _cursor.Write(bytes);

    // Arrays of fixed-width numbers are written a run at a time: copied, or byte-swapped by the vectorized
    // ReverseEndianness when the flavour's byte order is not the machine's, instead of element by element.
    private void PutInt32s(ReadOnlySpan<int> values) => PutNumbers(values, BinaryPrimitives.ReverseEndianness, static value => ZigZag.Encode(value));

    private void PutInt64s(ReadOnlySpan<long> values) => PutNumbers(values, BinaryPrimitives.ReverseEndianness, static value => ZigZag.Encode(value));

    private void PutNumbers<T>(ReadOnlySpan<T> values, ReverseEndiannessAction<T> reverseEndianness, Func<T, ulong> zigZag)
        where T : unmanaged
    {
        if (Varints)
        {
            foreach (var value in values)
            {
                PutVarint(zigZag(value));
            }

            return;
        }

        var size = Unsafe.SizeOf<T>();
        while (!values.IsEmpty)
        {
            var run = values[..Math.Min(values.Length, ArrayRun / size)];
            var target = MemoryMarshal.Cast<byte, T>(_cursor.GetSpan(run.Length * size));
            if (LittleEndian == BitConverter.IsLittleEndian)
            {
                run.CopyTo(target);
            }
            else
            {
                reverseEndianness(run, target);
            }

            _cursor.Advance(run.Length * size);
            values = values[run.Length..];
        }
    }

    private void PutString(string text)
    {
        if (text.Length <= ShortText && !Varints && TryPutShortAscii(text))
        {
            return;
        }

        PutEncodedString(text);
    }

    // A string that is not short ASCII, through the flavour's encoder.
    private void PutEncodedString(string text)
    {
        if (_format is NbtFormat.Java or NbtFormat.JavaNetwork)
        {
            var length = ModifiedUtf8.GetByteCount(text);
            if (length > ModifiedUtf8.MaxByteCount)
            {
                NbtThrow.StringTooLong(length, "Modified UTF-8", ModifiedUtf8.MaxByteCount, nameof(text));
            }

            PutInt16((short)(ushort)length);

            // One byte a char only when every char is U+0001 to U+007F: then narrowing is the whole encoding.
            if (length == text.Length)
            {
                Ascii.FromUtf16(text, _cursor.GetSpan(length), out _);
            }
            else
            {
                ModifiedUtf8.Encode(text, _cursor.GetSpan(length));
            }

            _cursor.Advance(length);
            return;
        }

        var byteCount = Utf8ByteCount(text);
        if (Varints)
        {
            PutVarint((uint)byteCount);
        }
        else
        {
            if (byteCount > ushort.MaxValue)
            {
                NbtThrow.StringTooLong(byteCount, "UTF-8", ushort.MaxValue, nameof(text));
            }

            PutInt16((short)(ushort)byteCount);
        }

        _cursor.Advance(StrictUtf8.GetBytes(text, _cursor.GetSpan(byteCount)));
    }

    // Names and most string values are short and ASCII (U+0001 to U+007F, one byte each in both encodings): one pass
    // narrows them behind their length prefix, where counting the bytes first and then narrowing took two passes and
    // two calls. Anything else is left, unwritten, to the encoders.
    private bool TryPutShortAscii(string text)
    {
        if (!TryWriteShortAscii(_cursor.GetSpan(2 + text.Length), text))
        {
            return false;
        }

        _cursor.Advance(2 + text.Length);
        return true;
    }

    // Writes a short ASCII string's 2-byte length and its chars at the start of the destination; nothing when it is not.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool TryWriteShortAscii(Span<byte> destination, string text)
    {
        if (!TryNarrowAscii(text, destination.Slice(2, text.Length)))
        {
            return false;
        }

        WriteInt16(destination, (short)text.Length);
        return true;
    }

    // Narrows U+0001 to U+007F a block of chars at a time: eight in a vector, the last block overlapping the one before
    // it rather than falling back to a loop. A string of 2 to 7 chars is one vector too, made of its first and last four
    // (two) chars, which overlap or meet; only a single char (or any string, on a big-endian machine) goes char by char.
    // Names are short, a few chars each in a player file, and narrowing them is a large share of a tree write: so short
    // strings take a vector too, rather than a loop over chars or two overlapping 64-bit words shifted into place.
    private static bool TryNarrowAscii(ReadOnlySpan<char> text, Span<byte> destination)
    {
        var length = text.Length;
        ref var source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(text));
        ref var target = ref MemoryMarshal.GetReference(destination);
        if (length >= Vector128<ushort>.Count && Vector128.IsHardwareAccelerated)
        {
            var last = (nuint)(length - Vector128<ushort>.Count);
            for (nuint i = 0; ; i += (nuint)Vector128<ushort>.Count)
            {
                i = Math.Min(i, last);
                var chars = Vector128.LoadUnsafe(ref source, i);
                if (AnyOutsideRange(chars))
                {
                    return false;
                }

                Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, i), Vector128.Narrow(chars, chars).AsUInt64().ToScalar());
                if (i == last)
                {
                    return true;
                }
            }
        }

        if (length >= 2 && Vector128.IsHardwareAccelerated && BitConverter.IsLittleEndian)
        {
            ref var bytes = ref Unsafe.As<ushort, byte>(ref source);
            // 2 or 3 chars fill both halves with the same pair of pairs, so that every lane holds a char to check.
            var chars = (length >= 4
                ? Vector128.Create(Unsafe.ReadUnaligned<ulong>(ref bytes), Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref bytes, (length - 4) * sizeof(char))))
                : Vector128.Create(Unsafe.ReadUnaligned<uint>(ref bytes) | ((ulong)Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref bytes, (length - 2) * sizeof(char))) << 32))).AsUInt16();

            if (AnyOutsideRange(chars))
            {
                return false;
            }

            var narrowed = Vector128.Narrow(chars, chars).AsUInt64().ToScalar();
            if (length >= 4)
            {
                Unsafe.WriteUnaligned(ref target, (uint)narrowed);
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, length - 4), (uint)(narrowed >> 32));
            }
            else
            {
                Unsafe.WriteUnaligned(ref target, (ushort)narrowed);
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, length - 2), (ushort)(narrowed >> 16));
            }

            return true;
        }

        for (var i = 0; i < length; i++)
        {
            var c = Unsafe.Add(ref source, i);
            if ((uint)(c - 1) >= 0x7F)
            {
                return false;
            }

            Unsafe.Add(ref target, i) = (byte)c;
        }

        return true;
    }

    // Whether a char is outside U+0001 to U+007F: less one, U+0000 wraps around to the top, so one comparison finds both.
    private static bool AnyOutsideRange(Vector128<ushort> chars) =>
        Vector128.GreaterThanAny(chars - Vector128<ushort>.One, Vector128.Create((ushort)0x7E));

    // UTF-8 cannot carry an unpaired surrogate; the platform's default encoder would write U+FFFD in its place.
    private static int Utf8ByteCount(string text)
    {
        try
        {
            return StrictUtf8.GetByteCount(text);
        }
        catch (EncoderFallbackException exception)
        {
            throw new ArgumentException(string.Create(CultureInfo.InvariantCulture,
                $"The string holds an unpaired surrogate (U+{(int)exception.CharUnknown:X4}) at index {exception.Index}: Bedrock NBT strings are UTF-8, which cannot carry it (Java NBT's Modified UTF-8 can)."), nameof(text), exception);
        }
    }

    private delegate void ReverseEndiannessAction<T>(ReadOnlySpan<T> source, Span<T> destination);
}

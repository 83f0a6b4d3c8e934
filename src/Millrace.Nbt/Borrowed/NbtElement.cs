using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Unicode;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Borrowed;

/// <summary>
/// One tag of a <see cref="NbtBorrowedDocument"/>: a position in it, decoded only as far as asked. A getter for another
/// tag type throws <see cref="InvalidOperationException"/>; every element throws <see cref="ObjectDisposedException"/>
/// once its document is disposed.
/// </summary>
public readonly struct NbtElement
{
    private readonly NbtBorrowedDocument? _document;
    private readonly int _entry;

    // -1 for the tape entry itself; else the index of a number in the list at _entry (such numbers have no entries).
    private readonly int _item;

    internal NbtElement(NbtBorrowedDocument document, int entry, int item)
    {
        _document = document;
        _entry = entry;
        _item = item;
    }

    /// <summary>Gets the tag type.</summary>
    public NbtTagType TagType => _item < 0 ? Entry.Type : Entry.ElementType;

    /// <summary>Gets the number of tags of a compound (as the bytes hold them, a repeated name counted each time), elements of a list, or values of an array.</summary>
    /// <exception cref="InvalidOperationException">The element is a number or a string.</exception>
    public int Count => TagType is NbtTagType.Compound or NbtTagType.List or NbtTagType.ByteArray or NbtTagType.IntArray or NbtTagType.LongArray
        ? Entry.Count
        : throw WrongType("a compound, a list or an array");

    /// <summary>Gets a list's element type (<see cref="NbtTagType.End"/> for an empty list that declares none).</summary>
    /// <exception cref="InvalidOperationException">The element is not a list.</exception>
    public NbtTagType ElementType => Expect(NbtTagType.List).ElementType;

    /// <summary>Gets the element at <paramref name="index"/> of a list: at once for lists of numbers, by passing over the elements before it for others.</summary>
    /// <param name="index">From 0 to <see cref="Count"/> - 1.</param>
    /// <returns>The element.</returns>
    /// <exception cref="InvalidOperationException">The element is not a list.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is outside the list.</exception>
    public NbtElement this[int index]
    {
        get
        {
            ref readonly var list = ref Expect(NbtTagType.List);
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)list.Count, nameof(index));
            if (!HasEntries(list.ElementType))
            {
                return new NbtElement(_document!, _entry, index);
            }

            var tape = _document!.Tape;
            var element = _entry + 1;
            for (var i = 0; i < index; i++)
            {
                element = tape[element].Next;
            }

            return new NbtElement(_document, element, -1);
        }
    }

    private ref readonly NbtTapeEntry Entry
    {
        get
        {
            if (_document is null)
            {
                throw new InvalidOperationException("This NbtElement is a default value, not an element of a document.");
            }

            return ref _document.Tape[_entry];
        }
    }

    /// <summary>
    /// Finds a compound's tag by name, compared as the bytes of the name's encoding in the flavour (Modified UTF-8 or
    /// UTF-8): the last tag, when the input repeats it. A name the input spells in a form Java's decoder accepts but its
    /// encoder never writes (a raw zero byte, an overlong sequence) is found by <see cref="EnumerateCompound"/> instead.
    /// </summary>
    /// <param name="name">The name.</param>
    /// <param name="value">The tag, when found.</param>
    /// <returns><see langword="true"/> when the compound has it.</returns>
    /// <exception cref="InvalidOperationException">The element is not a compound.</exception>
    public bool TryGetProperty(string name, out NbtElement value)
    {
        ArgumentNullException.ThrowIfNull(name);
        Expect(NbtTagType.Compound);

        // The name in the flavour's own encoding, so the comparison is of bytes and exact.
        var java = _document!.Format is NbtFormat.Java or NbtFormat.JavaNetwork;
        var size = java ? ModifiedUtf8.GetByteCount(name) : Encoding.UTF8.GetMaxByteCount(name.Length);
        byte[]? rented = null;
        var buffer = size <= 256 ? stackalloc byte[256] : (rented = ArrayPool<byte>.Shared.Rent(size));
        try
        {
            int written;
            if (java)
            {
                written = ModifiedUtf8.Encode(name, buffer);
            }
            else if (Utf8.FromUtf16(name, buffer, out _, out written, replaceInvalidSequences: false) != OperationStatus.Done)
            {
                // An unpaired surrogate has no UTF-8 form, so no name in the input spells it.
                value = default;
                return false;
            }

            return TryGetProperty(buffer[..written], out value);
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    /// <summary>
    /// Finds a compound's tag by its name's bytes as the input holds them (Modified UTF-8 or UTF-8, by flavour), without
    /// decoding any name. Bytes the input repeats find their last tag, as Minecraft and the tree reader keep it.
    /// </summary>
    /// <param name="encodedName">The name's bytes; for ASCII names, <c>"Health"u8</c>.</param>
    /// <param name="value">The tag, when found.</param>
    /// <returns><see langword="true"/> when the compound has it.</returns>
    /// <exception cref="InvalidOperationException">The element is not a compound.</exception>
    public bool TryGetProperty(ReadOnlySpan<byte> encodedName, out NbtElement value)
    {
        ref readonly var compound = ref Expect(NbtTagType.Compound);
        var tape = _document!.Tape;
        var bytes = _document.Bytes.Span;
        var bigEndian = _document.Format != NbtFormat.Bedrock;
        var found = -1;
        for (var tag = _entry + 1; tag < compound.Next; tag = tape[tag].Next)
        {
            var at = tape[tag].Name;
            int length = bigEndian ? (ushort)(bytes[at] << 8 | bytes[at + 1]) : (ushort)(bytes[at + 1] << 8 | bytes[at]);
            if (bytes.Slice(at + 2, length).SequenceEqual(encodedName))
            {
                found = tag;
            }
        }

        value = found < 0 ? default : new NbtElement(_document, found, -1);
        return found >= 0;
    }

    /// <summary>Gets a compound's tag by name.</summary>
    /// <param name="name">The name.</param>
    /// <returns>The tag.</returns>
    /// <exception cref="InvalidOperationException">The element is not a compound.</exception>
    /// <exception cref="KeyNotFoundException">The compound has no tag of that name.</exception>
    public NbtElement GetProperty(string name) =>
        TryGetProperty(name, out var value) ? value : throw new KeyNotFoundException($"The compound has no tag named \"{name}\".");

    /// <summary>Enumerates a compound's named tags in input order, every one the bytes hold (a repeated name too, where a tree keeps the last).</summary>
    /// <returns>The enumerator.</returns>
    /// <exception cref="InvalidOperationException">The element is not a compound.</exception>
    public CompoundEnumerator EnumerateCompound()
    {
        ref readonly var compound = ref Expect(NbtTagType.Compound);
        return new CompoundEnumerator(_document!, _entry + 1, compound.Next);
    }

    /// <summary>Enumerates a list's elements.</summary>
    /// <returns>The enumerator.</returns>
    /// <exception cref="InvalidOperationException">The element is not a list.</exception>
    public ListEnumerator EnumerateList()
    {
        ref readonly var list = ref Expect(NbtTagType.List);
        return new ListEnumerator(_document!, _entry, list.Count, HasEntries(list.ElementType));
    }

    /// <summary>Gets a byte tag's value.</summary>
    /// <returns>The value.</returns>
    public sbyte GetByte() => (sbyte)ValueCursor(NbtTagType.Byte).ReadByte();

    /// <summary>Gets a short tag's value.</summary>
    /// <returns>The value.</returns>
    public short GetShort() => ValueCursor(NbtTagType.Short).ReadInt16();

    /// <summary>Gets an int tag's value.</summary>
    /// <returns>The value.</returns>
    public int GetInt() => ValueCursor(NbtTagType.Int).ReadInt32();

    /// <summary>Gets a long tag's value.</summary>
    /// <returns>The value.</returns>
    public long GetLong() => ValueCursor(NbtTagType.Long).ReadInt64();

    /// <summary>Gets a float tag's value.</summary>
    /// <returns>The value.</returns>
    public float GetFloat() => ValueCursor(NbtTagType.Float).ReadSingle();

    /// <summary>Gets a double tag's value.</summary>
    /// <returns>The value.</returns>
    public double GetDouble() => ValueCursor(NbtTagType.Double).ReadDouble();

    /// <summary>Decodes a string tag.</summary>
    /// <returns>The string.</returns>
    /// <exception cref="NbtFormatException">The bytes are not valid Modified UTF-8 (Java) or UTF-8 (Bedrock), at their offset.</exception>
    public string GetString() => _document!.DecodeString(PayloadOf(NbtTagType.String));

    /// <summary>Gets a string tag's bytes as the input holds them (Modified UTF-8 or UTF-8, by flavour), undecoded and unchecked.</summary>
    /// <returns>The bytes.</returns>
    public ReadOnlyMemory<byte> GetStringBytes() => _document!.StringBytes(PayloadOf(NbtTagType.String));

    /// <summary>Gets the bytes of a byte array, or of a list of bytes, without copying.</summary>
    /// <returns>The bytes.</returns>
    /// <exception cref="InvalidOperationException">The element is neither.</exception>
    public ReadOnlyMemory<byte> GetByteArray() => GetNumbers<sbyte>().Bytes;

    /// <summary>
    /// Gets the numbers of an array or a list of numbers as a view over the input: <see cref="sbyte"/> for byte arrays and
    /// lists, <see cref="int"/> for int arrays and lists, <see cref="long"/> for long arrays and lists, <see cref="short"/>,
    /// <see cref="float"/> and <see cref="double"/> for lists of those; an empty list that declares no element type is
    /// an empty view of any of them.
    /// </summary>
    /// <typeparam name="T">The number type.</typeparam>
    /// <returns>The view.</returns>
    /// <exception cref="InvalidOperationException">The element is not an array or list of <typeparamref name="T"/>.</exception>
    public NbtNumberView<T> GetNumbers<T>()
        where T : unmanaged
    {
        ref readonly var entry = ref Entry;
        var numberType = NumberType<T>();
        var matches = _item < 0 && numberType is { } wanted && (entry.Type switch
        {
            NbtTagType.ByteArray => wanted == NbtTagType.Byte,
            NbtTagType.IntArray => wanted == NbtTagType.Int,
            NbtTagType.LongArray => wanted == NbtTagType.Long,
            NbtTagType.List => entry.ElementType == wanted || entry.ElementType == NbtTagType.End,
            _ => false,
        });
        if (!matches)
        {
            throw WrongType($"an array or a list of {typeof(T).Name}");
        }

        var length = entry.ElementType == NbtTagType.End && entry.Type == NbtTagType.List ? 0 : entry.Count * Unsafe.SizeOf<T>();
        return new NbtNumberView<T>(_document!.Bytes.Slice(entry.Payload, length), _document.Format != NbtFormat.Bedrock);
    }

    /// <summary>Reads this tag and everything in it as an owned tag, as the tree reader would.</summary>
    /// <returns>The tag.</returns>
    /// <exception cref="NbtFormatException">A string is not valid (Modified) UTF-8, or the tree exceeds <see cref="NbtReaderOptions.MaxBytes"/>.</exception>
    public NbtTag ToTag()
    {
        // The tree reader starts at the payload's beginning: an array's length, a list's element type.
        var type = TagType;
        var start = Payload - type switch
        {
            NbtTagType.ByteArray or NbtTagType.IntArray or NbtTagType.LongArray => 4,
            NbtTagType.List => 5,
            _ => 0,
        };
        return _document!.ReadTag(type, start);
    }

    /// <summary>Gets the offset of this tag's payload in <see cref="NbtBorrowedDocument.Bytes"/>.</summary>
    private int Payload
    {
        get
        {
            ref readonly var entry = ref Entry;
            return _item < 0 ? entry.Payload : entry.Payload + (_item * FixedSize(entry.ElementType));
        }
    }

    // Lists of these have a tape entry per element; lists of numbers (and End) are read in place.
    private static bool HasEntries(NbtTagType elementType) => elementType is not (NbtTagType.End or NbtTagType.Byte or NbtTagType.Short or NbtTagType.Int or NbtTagType.Long or NbtTagType.Float or NbtTagType.Double);

    private static int FixedSize(NbtTagType type) => type switch
    {
        NbtTagType.Byte => 1,
        NbtTagType.Short => 2,
        NbtTagType.Int or NbtTagType.Float => 4,
        _ => 8,
    };

    private static NbtTagType? NumberType<T>() =>
        typeof(T) == typeof(sbyte) ? NbtTagType.Byte
        : typeof(T) == typeof(short) ? NbtTagType.Short
        : typeof(T) == typeof(int) ? NbtTagType.Int
        : typeof(T) == typeof(long) ? NbtTagType.Long
        : typeof(T) == typeof(float) ? NbtTagType.Float
        : typeof(T) == typeof(double) ? NbtTagType.Double
        : null;

    private ref readonly NbtTapeEntry Expect(NbtTagType type)
    {
        ref readonly var entry = ref Entry;
        if (_item >= 0 || entry.Type != type)
        {
            throw WrongType(type == NbtTagType.List ? "a list" : "a compound");
        }

        return ref entry;
    }

    private int PayloadOf(NbtTagType type)
    {
        if (TagType != type)
        {
            throw WrongType($"a {type}");
        }

        return Payload;
    }

    private NbtCursor ValueCursor(NbtTagType type) => _document!.CursorAt(PayloadOf(type));

    private InvalidOperationException WrongType(string wanted) =>
        new($"The element is {(_document is null ? "a default value" : $"a {TagType}")}, not {wanted}.");

    /// <summary>Enumerates a compound's named tags.</summary>
    public struct CompoundEnumerator
    {
        private readonly NbtBorrowedDocument _document;
        private readonly int _end;
        private int _next;
        private int _current;

        internal CompoundEnumerator(NbtBorrowedDocument document, int first, int end)
        {
            _document = document;
            _next = first;
            _end = end;
            _current = -1;
        }

        /// <summary>Gets the current tag.</summary>
        public readonly NbtProperty Current => new(_document, _current);

        /// <summary>Returns this enumerator, for <c>foreach</c>.</summary>
        /// <returns>This enumerator.</returns>
        public readonly CompoundEnumerator GetEnumerator() => this;

        /// <summary>Moves to the next tag.</summary>
        /// <returns><see langword="false"/> after the last.</returns>
        public bool MoveNext()
        {
            if (_next >= _end)
            {
                return false;
            }

            _current = _next;
            _next = _document.Tape[_next].Next;
            return true;
        }
    }

    /// <summary>Enumerates a list's elements.</summary>
    public struct ListEnumerator
    {
        private readonly NbtBorrowedDocument _document;
        private readonly int _list;
        private readonly int _count;
        private readonly bool _entries;
        private int _index;
        private int _element;

        internal ListEnumerator(NbtBorrowedDocument document, int list, int count, bool entries)
        {
            _document = document;
            _list = list;
            _count = count;
            _entries = entries;
            _index = -1;
            _element = list;
        }

        /// <summary>Gets the current element.</summary>
        public readonly NbtElement Current => _entries ? new(_document, _element, -1) : new(_document, _list, _index);

        /// <summary>Returns this enumerator, for <c>foreach</c>.</summary>
        /// <returns>This enumerator.</returns>
        public readonly ListEnumerator GetEnumerator() => this;

        /// <summary>Moves to the next element.</summary>
        /// <returns><see langword="false"/> after the last.</returns>
        public bool MoveNext()
        {
            if (_index + 1 >= _count)
            {
                return false;
            }

            _index++;
            _element = _index == 0 ? _list + 1 : _document.Tape[_element].Next;
            return true;
        }
    }
}

/// <summary>A named tag of a compound in a <see cref="NbtBorrowedDocument"/>.</summary>
public readonly struct NbtProperty
{
    private readonly NbtBorrowedDocument _document;
    private readonly int _entry;

    internal NbtProperty(NbtBorrowedDocument document, int entry)
    {
        _document = document;
        _entry = entry;
    }

    /// <summary>Gets the name, decoded.</summary>
    /// <exception cref="NbtFormatException">The name is not valid Modified UTF-8 (Java) or UTF-8 (Bedrock).</exception>
    public string Name => Document.DecodeString(Document.Tape[_entry].Name);

    /// <summary>Gets the name's bytes as the input holds them, undecoded.</summary>
    public ReadOnlyMemory<byte> NameBytes => Document.StringBytes(Document.Tape[_entry].Name);

    /// <summary>Gets the tag.</summary>
    public NbtElement Value => new(Document, _entry, -1);

    private NbtBorrowedDocument Document => _document ?? throw new InvalidOperationException("This NbtProperty is a default value, not a tag of a document.");

    /// <summary>Compares the name's bytes with <paramref name="encodedName"/> (Modified UTF-8 or UTF-8, by flavour) without decoding.</summary>
    /// <param name="encodedName">The name's bytes; for ASCII names, <c>"Health"u8</c>.</param>
    /// <returns><see langword="true"/> when they are equal.</returns>
    public bool NameEquals(ReadOnlySpan<byte> encodedName) => NameBytes.Span.SequenceEqual(encodedName);
}

using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>What the pull reader is positioned on.</summary>
public enum NbtToken
{
    /// <summary>Nothing yet, or the end of the input.</summary>
    None,

    /// <summary>The start of a compound; its named tags follow.</summary>
    StartCompound,

    /// <summary>The end of a compound.</summary>
    EndCompound,

    /// <summary>The start of a list; <see cref="NbtPullReader.ListCount"/> elements follow.</summary>
    StartList,

    /// <summary>The end of a list.</summary>
    EndList,

    /// <summary>A number, string or array; read it with the <c>Get…</c> methods or move on.</summary>
    Value,
}

/// <summary>
/// A forward-only NBT reader over uncompressed bytes: token by token, with <see cref="Skip"/> to pass over a whole
/// compound or list without reading it, so a few fields of a large file cost only the bytes on the way to them.
/// Names can be compared without decoding them. Its stack of container frames lives in the reader itself for the first
/// 16 levels and in a heap array beyond them, so it owns nothing that must be returned: no <c>Dispose</c>, no leak when
/// a reader is abandoned. Malformed input raises <see cref="NbtFormatException"/> at the offending byte.
/// </summary>
public ref struct NbtPullReader
{
    private readonly ReadOnlySpan<byte> _data;
    private readonly int _maxDepth;
    private NbtCursor _cursor;
    private const int InlineFrames = 16;

    private FrameBuffer _inlineFrames;
    private Frame[]? _moreFrames;
    private int _depth;
    private bool _started;
    private int _payloadStart;
    private int _nameStart;
    private int _nameLength;
    private NbtStringTable _strings;

    // Bit n set: tag type n is a number of fixed size in this flavour (FixedSize; ints and longs are varints on the
    // Bedrock network). Its size is then NbtMemberKinds.Of's.
    private static readonly uint FixedWidthTypes = FixedSizeTypes(NbtFormat.Java);
    private static readonly uint VarintFlavourTypes = FixedSizeTypes(NbtFormat.BedrockNetwork);
    private readonly uint _fixedSizeTypes;

    /// <summary>Initializes a reader.</summary>
    /// <param name="data">Uncompressed NBT of one flavour.</param>
    /// <param name="options">The flavour and the nesting limit (<see cref="NbtReaderOptions.Format"/>, <see cref="NbtReaderOptions.MaxDepth"/>); <see cref="NbtReaderOptions.Default"/> when <see langword="null"/>.</param>
    public NbtPullReader(ReadOnlySpan<byte> data, NbtReaderOptions? options = null)
    {
        options ??= NbtReaderOptions.Default;
        options.Validate();
        _data = data;
        _maxDepth = options.MaxDepth;
        _cursor = new NbtCursor(data, options.Format);
        _nameStart = -1;
        _fixedSizeTypes = options.Format == NbtFormat.BedrockNetwork ? VarintFlavourTypes : FixedWidthTypes;
    }

    /// <summary>Gets the current token.</summary>
    public NbtToken Token { get; private set; }

    /// <summary>Gets the tag type of the current token (<see cref="NbtTagType.End"/> for end tokens).</summary>
    public NbtTagType TagType { get; private set; }

    /// <summary>Gets the number of open containers around the current token (the root's start is at depth 1).</summary>
    public readonly int Depth => _depth;

    /// <summary>Gets the element count of the list just started.</summary>
    public int ListCount { get; private set; }

    /// <summary>Gets the element type of the list just started.</summary>
    public NbtTagType ListElementType { get; private set; }

    /// <summary>Gets the byte offset where the current token's payload starts.</summary>
    public readonly int BytesConsumed => _cursor.Position;

    /// <summary>Gets a value indicating whether the current token has a name (it is a named tag of a compound, or the root).</summary>
    public readonly bool HasName => _nameStart >= 0;

    /// <summary>Gets the raw name bytes (Modified UTF-8 or UTF-8, by flavour), without decoding.</summary>
    public readonly ReadOnlySpan<byte> NameBytes => _nameStart >= 0 ? _data.Slice(_nameStart, _nameLength) : default;

    /// <summary>Compares the current name with <paramref name="utf8"/> byte for byte (exact for names without U+0000 or characters outside the BMP).</summary>
    /// <param name="utf8">The name, as UTF-8.</param>
    /// <returns><see langword="true"/> when they are equal.</returns>
    public readonly bool NameEquals(ReadOnlySpan<byte> utf8) => _nameStart >= 0 && NameBytes.SequenceEqual(utf8);

    /// <summary>Decodes the current name; a name decoded before usually comes back as the same string.</summary>
    /// <returns>The name, or <see langword="null"/> when the token has none.</returns>
    public string? GetName()
    {
        if (_nameStart < 0)
        {
            return null;
        }

        return _strings.GetName(_data, _nameStart, _nameLength, _cursor);
    }

    /// <summary>Moves to the next token.</summary>
    /// <returns><see langword="false"/> at the end of the input, after the root's last token.</returns>
    /// <exception cref="NbtFormatException">The input is malformed here, or bytes follow the root (as the tree reader, the reader refuses them when it reaches the end).</exception>
    public bool Read()
    {
        if (Token == NbtToken.Value)
        {
            MovePastValue();
        }

        // Depth 0 is before the root or after its end: one test on the way to every other token. The name is forgotten
        // on each path but the named tag's fast one (TryReadHeader sets it), so the most frequent token stores it once;
        // the careful path forgets it before reading the tag's type, so that an error there leaves no name, as before.
        if (_depth == 0)
        {
            _nameStart = -1;
            return ReadAtRoot();
        }

        ref var frame = ref FrameAt(_depth - 1);
        if (frame.IsList)
        {
            NextElement(ref frame);
            return true;
        }

        NextMember();
        return true;
    }

    /// <summary>
    /// Moves to the next named tag of the compound the reader is in, as <see cref="Read"/> does there, and says whether
    /// there was one: a loop over a compound's tags, such as a generated reader's, tests one result, not
    /// <see cref="Read"/>'s and then <see cref="Token"/>.
    /// </summary>
    /// <returns><see langword="false"/> on the compound's end, where the reader then is (<see cref="NbtToken.EndCompound"/>).</returns>
    /// <exception cref="InvalidOperationException">The reader is not inside a compound: before the root, after it, on a root that is not a container, or in a list.</exception>
    /// <exception cref="NbtFormatException">The input is malformed here.</exception>
    public bool ReadMember()
    {
        if (_depth == 0 || FrameAt(_depth - 1).IsList)
        {
            NbtThrow.NotInContainer(list: false, _depth);
        }

        if (Token == NbtToken.Value)
        {
            MovePastValue();
        }

        return NextMember();
    }

    /// <summary>
    /// Moves to the next element of the list the reader is in, as <see cref="Read"/> does there, and says whether there
    /// was one: for a loop over a list's elements, as <see cref="ReadMember"/> is for a compound's tags.
    /// </summary>
    /// <returns><see langword="false"/> on the list's end, where the reader then is (<see cref="NbtToken.EndList"/>).</returns>
    /// <exception cref="InvalidOperationException">The reader is not inside a list: before the root, after it, on a root that is not a container, or in a compound.</exception>
    /// <exception cref="NbtFormatException">The input is malformed here.</exception>
    public bool ReadElement()
    {
        if (_depth == 0)
        {
            NbtThrow.NotInContainer(list: true, _depth);
        }

        // Found once: moving past a value changes no frame.
        ref var frame = ref FrameAt(_depth - 1);
        if (!frame.IsList)
        {
            NbtThrow.NotInContainer(list: true, _depth);
        }

        if (Token == NbtToken.Value)
        {
            MovePastValue();
        }

        return NextElement(ref frame);
    }

    // A list's next element, or its end (false).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool NextElement(ref Frame frame)
    {
        _nameStart = -1;
        if (frame.Remaining == 0)
        {
            End(NbtToken.EndList);
            return false;
        }

        frame.Remaining--;
        Begin(frame.ElementType);
        return true;
    }

    // A compound's next tag, or its end (false).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool NextMember()
    {
        if (TryReadHeader() is var header and not 0)
        {
            Begin((NbtTagType)header);
            return true;
        }

        _nameStart = -1;
        var tagType = _cursor.ReadTagType();
        if (tagType == NbtTagType.End)
        {
            End(NbtToken.EndCompound);
            return false;
        }

        ReadName();
        Begin(tagType);
        return true;
    }

    // A compound's next tag, its id, name length and name checked at once against the bytes that remain, where the
    // careful steps check each through the cursor: the tag's type, or 0 to leave the tag to them (the compound's end, the
    // varint flavour, anything cut short or not a tag, which they locate).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int TryReadHeader()
    {
        var position = _cursor.Position;
        if (!_cursor.CanTake(3) || _cursor.Format == NbtFormat.BedrockNetwork)
        {
            return 0;
        }

        // The cursor reads _data: its checks hold for these bytes, and asking it (not _data's length) lets the JIT drop
        // the advance's own check of the same bytes below.
        ref var at = ref Unsafe.Add(ref MemoryMarshal.GetReference(_data), position);
        var id = at;
        int nameLength = ReadUInt16(ref Unsafe.Add(ref at, 1));
        if ((uint)(id - 1) >= (uint)NbtTagType.LongArray || !_cursor.CanTake(3 + nameLength))
        {
            return 0;
        }

        _cursor.Advance(3 + nameLength);
        _nameStart = position + 3;
        _nameLength = nameLength;
        return id;
    }

    // Out of line, as the rest of Read is every token's path: with the root's handling kept out, Read is small enough
    // for the JIT to inline into a generated reader's loop. Generated readers loop on ReadMember and ReadElement, which
    // share Read's steps for a compound and a list.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool ReadAtRoot()
    {
        if (_started)
        {
            if (_cursor.Remaining > 0)
            {
                NbtThrow.TrailingBytes(_cursor.Remaining, _cursor.Position);
            }

            Token = NbtToken.None;
            return false;
        }

        _started = true;
        var type = _cursor.ReadTagType();
        if (type == NbtTagType.End)
        {
            NbtThrow.RootIsEnd(0);
        }

        if (_cursor.Format != NbtFormat.JavaNetwork)
        {
            ReadName();
        }

        Begin(type);
        return true;
    }

    /// <summary>Skips the current compound or list to its end token (lists of fixed-size numbers in one jump); on any other token, does nothing.
    /// <see cref="ListCount"/> and <see cref="ListElementType"/> keep describing the list last started by <see cref="Read"/>.</summary>
    public void Skip()
    {
        // Small enough for the JIT to inline: a skim calls it on every token, and most are values, which it leaves.
        if (Token is NbtToken.StartCompound or NbtToken.StartList)
        {
            SkipContainer();
        }
    }

    private void SkipContainer()
    {
        // Iterative, on the reader's own frame stack: nesting costs no call stack however deep MaxDepth is. It walks the
        // bytes with the same checks as Read but none of its per-token state (token, type, name), which only the end
        // token it stops on needs.
        var end = Token == NbtToken.StartCompound ? NbtToken.EndCompound : NbtToken.EndList;
        var target = _depth - 1;
        Span<Frame> open = stackalloc Frame[PassFrames];
        while (_depth > target)
        {
            ref var frame = ref FrameAt(_depth - 1);
            if (!frame.IsList)
            {
                // A compound's values in one run, up to its end or a container to enter.
                while (true)
                {
                    SkipSimpleMembers(open, seeded: 0);
                    var type = _cursor.ReadTagType();
                    if (type == NbtTagType.End)
                    {
                        _depth--;
                        break;
                    }

                    _cursor.ReadStringBytes();
                    if (type is NbtTagType.Compound or NbtTagType.List)
                    {
                        Enter(type);
                        break;
                    }

                    SkipPayload(type);
                }
            }
            else if (frame.Remaining == 0)
            {
                _depth--;
            }
            else if (frame.ElementType == NbtTagType.Compound && _cursor.Format != NbtFormat.BedrockNetwork && _depth < _maxDepth)
            {
                // A list of compounds (an inventory) in one pass: its frame moves onto the pass's stack, with its first
                // compound's, where the careful steps took every compound on and off the reader's stack.
                open[0] = new Frame(true, NbtTagType.Compound, frame.Remaining - 1);
                open[1] = new Frame(false, NbtTagType.End, 0);
                _depth--;
                SkipSimpleMembers(open, seeded: 2);
            }
            else if (frame.ElementType is NbtTagType.Compound or NbtTagType.List)
            {
                frame.Remaining--;
                Enter(frame.ElementType);
            }
            else if (FixedSize(frame.ElementType) is > 0 and var size)
            {
                // A list of fixed-size numbers is passed over in one jump.
                _cursor.Advance(checked(frame.Remaining * size));
                frame.Remaining = 0;
            }
            else
            {
                for (; frame.Remaining > 0; frame.Remaining--)
                {
                    SkipPayload(frame.ElementType);
                }
            }
        }

        _nameStart = -1;
        Token = end;
        TagType = NbtTagType.End;
    }

    // Inside Skip: what comes next in a compound, each tag checked once, as a whole extent, on the raw bytes, where the
    // careful steps check every length through the cursor: numbers, strings, lists of numbers, and compounds and lists
    // of compounds, opened on a small stack of the pass's own and pushed as the reader's frames when the pass stops
    // inside them. It stops at what it cannot check that way (the end of the compound it started in, lists of anything
    // else, arrays, anything malformed or too deep) and leaves it to the careful steps, so they still say exactly what
    // is wrong and where.
    // Seeded: how many frames at the start of open the pass starts inside (a list and its first compound, taken off the
    // reader's stack); the pass then stops when it closes them, where Skip stops.
    private void SkipSimpleMembers(scoped Span<Frame> open, int seeded)
    {
        var (taken, opened) = _cursor.Format switch
        {
            NbtFormat.Java or NbtFormat.JavaNetwork => SimpleMembers<BigEndian>(_data, _cursor.Position, _maxDepth - _depth, open, seeded),
            NbtFormat.Bedrock => SimpleMembers<LittleEndian>(_data, _cursor.Position, _maxDepth - _depth, open, seeded),
            _ => (0, seeded), // Bedrock network's varint numbers have no fixed size.
        };
        if (taken > 0)
        {
            _cursor.Advance(taken);
        }

        foreach (var frame in open[..opened])
        {
            Push(frame);
        }
    }

    private const int PassFrames = 8;

    // Room: how many more containers may open before the reader's MaxDepth. The pass always stops between two tags of
    // a compound (the one it started in, or the innermost it opened), where the careful steps go on.
    private static (int Taken, int Opened) SimpleMembers<TOrder>(ReadOnlySpan<byte> data, int start, int room, Span<Frame> open, int seeded)
        where TOrder : struct, IByteOrder
    {
        ref var bytes = ref MemoryMarshal.GetReference(data);
        var length = data.Length;
        var pos = start;
        var depth = seeded;
        // A seeded pass stops when it closes its last frame, which only a compound's end can do: tested there, not on
        // every tag.
        while (pos < length)
        {
            var id = Unsafe.Add(ref bytes, pos);
            if (id == 0 && depth > 0)
            {
                // The end of a compound the pass opened: the next element of its list, or its parent's next tag.
                pos++;
                depth--;
                if (depth > 0 && open[depth - 1].IsList)
                {
                    ref var list = ref open[depth - 1];
                    if (list.Remaining > 0)
                    {
                        list.Remaining--;
                        open[depth++] = new Frame(false, NbtTagType.End, 0);
                        continue;
                    }

                    depth--;
                }

                if (depth == 0 && seeded > 0)
                {
                    break;
                }

                continue;
            }

            // The payload's extent in a long, so no list's length can wrap it.
            long end = NbtMemberKinds.EndOfValue<TOrder>(ref bytes, length, pos, out var kind, out var payload);
            if (end != 0)
            {
                // A number or a string: its extent is checked below.
            }
            else if (kind == NbtMemberKinds.Compound && depth < room && depth < open.Length && payload <= length)
            {
                open[depth++] = new Frame(false, NbtTagType.End, 0);
                pos = payload;
                continue;
            }
            else if (kind == NbtMemberKinds.List && depth < room && (uint)payload + 5 <= (uint)length)
            {
                var elementKind = NbtMemberKinds.Of[Unsafe.Add(ref bytes, payload)];
                var elements = TOrder.ReadInt32(ref Unsafe.Add(ref bytes, payload + 1));
                var first = payload + 5;
                if (elements < 0 || (elementKind == NbtMemberKinds.Compound ? elements > length - first : (uint)(elementKind - 1) >= 8))
                {
                    break;
                }

                if (elementKind == NbtMemberKinds.Compound && elements > 0)
                {
                    // The list's frame and its first element's, as the careful steps would push them.
                    if (depth + 1 >= room || depth + 2 > open.Length)
                    {
                        break;
                    }

                    open[depth++] = new Frame(true, NbtTagType.Compound, elements - 1);
                    open[depth++] = new Frame(false, NbtTagType.End, 0);
                    pos = first;
                    continue;
                }

                end = first + ((long)elements * (elementKind == NbtMemberKinds.Compound ? 0 : elementKind));
            }
            else
            {
                break;
            }

            if (end > length)
            {
                break;
            }

            pos = (int)end;
        }

        return (pos - start, depth);
    }

    // Inside Skip: a compound or list is entered, its frame pushed.
    private void Enter(NbtTagType type)
    {
        if (type == NbtTagType.Compound)
        {
            Push(new Frame(false, NbtTagType.End, 0));
        }
        else
        {
            PushList();
        }
    }

    /// <summary>Gets the current value as a byte.</summary>
    /// <returns>The value.</returns>
    public readonly sbyte GetByte() => (sbyte)FixedValue(NbtTagType.Byte, sizeof(sbyte));

    /// <summary>Gets the current value as a short.</summary>
    /// <returns>The value.</returns>
    public readonly short GetShort() => (short)ReadUInt16(ref FixedValue(NbtTagType.Short, sizeof(short)));

    /// <summary>Gets the current value as an int.</summary>
    /// <returns>The value.</returns>
    public readonly int GetInt() => _cursor.Format == NbtFormat.BedrockNetwork ? ValueCursor(NbtTagType.Int).ReadInt32() : FixedInt32(NbtTagType.Int);

    /// <summary>Gets the current value as a long.</summary>
    /// <returns>The value.</returns>
    public readonly long GetLong() => _cursor.Format == NbtFormat.BedrockNetwork ? ValueCursor(NbtTagType.Long).ReadInt64() : FixedInt64(NbtTagType.Long);

    /// <summary>Gets the current value as a float.</summary>
    /// <returns>The value.</returns>
    public readonly float GetFloat() => BitConverter.Int32BitsToSingle(FixedInt32(NbtTagType.Float));

    /// <summary>Gets the current value as a double.</summary>
    /// <returns>The value.</returns>
    public readonly double GetDouble() => BitConverter.Int64BitsToDouble(FixedInt64(NbtTagType.Double));

    /// <summary>Gets the current value as a string; an ASCII string this reader decoded before comes back as the same string.</summary>
    /// <returns>The value.</returns>
    public string GetString()
    {
        // Read in place, as the numbers are, where the string's bytes are known to be there (the reader has not moved past
        // the value); else a cursor on the value reads the varint flavour's length, or refuses a string cut short.
        ExpectValue(NbtTagType.String);
        if (StringLengthInPlace() is >= 0 and var length)
        {
            return _strings.Get(_data, _payloadStart + sizeof(ushort), length, _cursor);
        }

        var cursor = ValueCursor(NbtTagType.String);
        return _strings.Read(_data, ref cursor);
    }

    /// <summary>Gets the bytes of the current byte array without copying.</summary>
    /// <returns>The bytes.</returns>
    public readonly ReadOnlySpan<byte> GetByteArray()
    {
        var cursor = ValueCursor(NbtTagType.ByteArray);
        return cursor.Take(cursor.ReadLength(1));
    }

    /// <summary>Gets the current int array.</summary>
    /// <returns>A new array of its values.</returns>
    public readonly int[] GetIntArray()
    {
        var cursor = ValueCursor(NbtTagType.IntArray);
        var values = new int[cursor.ReadLength(cursor.MinimumSize(NbtTagType.Int))];
        cursor.ReadInt32s(values);
        return values;
    }

    /// <summary>Gets the current long array.</summary>
    /// <returns>A new array of its values.</returns>
    public readonly long[] GetLongArray()
    {
        var cursor = ValueCursor(NbtTagType.LongArray);
        var values = new long[cursor.ReadLength(cursor.MinimumSize(NbtTagType.Long))];
        cursor.ReadInt64s(values);
        return values;
    }

    // The current value's first byte, checked to be of the type expected and to have size bytes: a fixed-width number,
    // or a string's length, read in place, where a cursor made for it checked the position it was made at, then the
    // flavour, then the bytes again.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly ref byte FixedValue(NbtTagType expected, int size)
    {
        ExpectValue(expected);
        if (_data.Length - _payloadStart < size)
        {
            NbtThrow.Truncated(size, _payloadStart);
        }

        return ref Unsafe.Add(ref MemoryMarshal.GetReference(_data), _payloadStart);
    }

    private readonly int FixedInt32(NbtTagType expected)
    {
        ref var at = ref FixedValue(expected, sizeof(int));
        return _cursor.IsLittleEndian ? LittleEndian.ReadInt32(ref at) : BigEndian.ReadInt32(ref at);
    }

    private readonly long FixedInt64(NbtTagType expected)
    {
        ref var at = ref FixedValue(expected, sizeof(long));
        return _cursor.IsLittleEndian ? LittleEndian.ReadInt64(ref at) : BigEndian.ReadInt64(ref at);
    }

    private readonly NbtCursor ValueCursor(NbtTagType expected)
    {
        ExpectValue(expected);
        return new NbtCursor(_data, _cursor.Format, _payloadStart);
    }

    // Every Get's check that the reader is on a value of the type asked for.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly void ExpectValue(NbtTagType expected)
    {
        if (Token != NbtToken.Value || TagType != expected)
        {
            // Out of line: the message's formatting, inlined with each Get into a generated reader, was most of its code.
            NbtThrow.NotOnValue(Token, TagType, expected);
        }
    }

    // A short, a name's length or a string's, in the flavour's byte order (shorts are fixed-width in every flavour).
    private readonly ushort ReadUInt16(ref byte at) => _cursor.IsLittleEndian ? LittleEndian.ReadUInt16(ref at) : BigEndian.ReadUInt16(ref at);

    private void ReadName()
    {
        var name = _cursor.ReadStringBytes();
        _nameLength = name.Length;
        _nameStart = _cursor.Position - name.Length;
    }

    private void Begin(NbtTagType type)
    {
        TagType = type;
        switch (type)
        {
            case NbtTagType.Compound:
                Push(new Frame(false, NbtTagType.End, 0));
                Token = NbtToken.StartCompound;
                break;
            case NbtTagType.List:
                ref var list = ref PushList();
                ListCount = list.Remaining;
                ListElementType = list.ElementType;
                Token = NbtToken.StartList;
                break;
            default:
                _payloadStart = _cursor.Position;
                Token = NbtToken.Value;
                break;
        }
    }

    // Reads a list's element type and count, checks them, and pushes its frame.
    [UnscopedRef]
    private ref Frame PushList()
    {
        // The fixed-width flavours' header in place, its type and count checked at once, as TryReadHeader does a tag's;
        // anything it would refuse goes to the careful steps, which say what is wrong and where.
        if (_cursor.Format != NbtFormat.BedrockNetwork && _cursor.CanTake(5))
        {
            ref var at = ref Unsafe.Add(ref MemoryMarshal.GetReference(_data), _cursor.Position);
            var id = at;
            var elements = _cursor.IsLittleEndian ? LittleEndian.ReadInt32(ref Unsafe.Add(ref at, 1)) : BigEndian.ReadInt32(ref Unsafe.Add(ref at, 1));
            if ((uint)(id - 1) < (uint)NbtTagType.LongArray && elements >= 0
                && (ulong)elements * (uint)_cursor.MinimumSize((NbtTagType)id) <= (ulong)(_cursor.Remaining - 5))
            {
                _cursor.Advance(5);
                Push(new Frame(true, (NbtTagType)id, elements));
                return ref FrameAt(_depth - 1);
            }
        }

        var elementType = _cursor.ReadTagType();
        var offset = _cursor.Position;
        var count = _cursor.ReadLength(elementType == NbtTagType.End ? 0 : _cursor.MinimumSize(elementType));
        if (elementType == NbtTagType.End && count > 0)
        {
            NbtThrow.EndListWithElements(count, offset);
        }

        Push(new Frame(true, elementType, count));
        return ref FrameAt(_depth - 1);
    }

    private void End(NbtToken token)
    {
        _depth--;
        Token = token;
        TagType = NbtTagType.End;
    }

    // Inlined for the frames kept in the reader, since every compound's and list's start goes through it; frames beyond
    // them, and the depth limit's error, out of line, so that what is inlined stays small.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Push(Frame frame)
    {
        var depth = _depth;
        if ((uint)depth < InlineFrames && depth != _maxDepth)
        {
            // Not through FrameAt: the JIT keeps its own test of the depth after the one above, a second test on every
            // compound's and list's start.
            Unsafe.Add(ref Unsafe.As<FrameBuffer, Frame>(ref _inlineFrames), depth) = frame;
            _depth = depth + 1;
            return;
        }

        PushBeyondInline(frame);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void PushBeyondInline(Frame frame)
    {
        if (_depth == _maxDepth)
        {
            NbtThrow.TooDeep(_maxDepth, _cursor.Position);
        }

        if (_depth >= InlineFrames && _depth - InlineFrames >= (_moreFrames?.Length ?? 0))
        {
            Array.Resize(ref _moreFrames, Math.Max(InlineFrames, (_moreFrames?.Length ?? 0) * 2));
        }

        FrameAt(_depth++) = frame;
    }

    // Read moves past the value it stopped on, read or not. A number's size comes from a table, and a string is tested
    // for, with no switch: on values of mixed types in a row, a jump on the type is hard to predict, and it is where a
    // switch spends its time.
    private void MovePastValue()
    {
        // A bit and a table, rather than one table of sizes by flavour packed as nibbles, which is slower to walk.
        if (((_fixedSizeTypes >> (int)TagType) & 1) != 0)
        {
            _cursor.Advance(NbtMemberKinds.Of[(int)TagType]);
        }
        else if (TagType == NbtTagType.String)
        {
            SkipString();
        }
        else
        {
            SkipPayload(TagType);
        }
    }

    // A string value passed over in place, as a number is, rather than through a call into the cursor: strings are
    // common among a player file's values. The varint flavour, and a string cut short, go to the cursor, which reads or
    // refuses them. Out of Read's path, where the JIT would inline it and make Read much larger.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void SkipString()
    {
        if (StringLengthInPlace() is >= 0 and var length)
        {
            _cursor.Advance(sizeof(ushort) + length);
        }
        else
        {
            _cursor.ReadStringBytes();
        }
    }

    // The length of the string at the cursor, once its 2-byte prefix and its bytes are known to be there; -1 for the
    // varint flavour and for a string cut short, which a cursor then reads or refuses.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly int StringLengthInPlace()
    {
        if (_cursor.Format != NbtFormat.BedrockNetwork && _cursor.CanTake(sizeof(ushort)))
        {
            int length = ReadUInt16(ref Unsafe.Add(ref MemoryMarshal.GetReference(_data), _cursor.Position));
            if (_cursor.CanTake(sizeof(ushort) + length))
            {
                return length;
            }
        }

        return -1;
    }

    private void SkipPayload(NbtTagType type)
    {
        switch (type)
        {
            case NbtTagType.Byte:
                _cursor.Advance(1);
                break;
            case NbtTagType.Short:
                _cursor.Advance(2);
                break;
            case NbtTagType.Float:
                _cursor.Advance(4);
                break;
            case NbtTagType.Double:
                _cursor.Advance(8);
                break;
            case NbtTagType.Int:
                _cursor.ReadInt32();
                break;
            case NbtTagType.Long:
                _cursor.ReadInt64();
                break;
            case NbtTagType.ByteArray:
                _cursor.Advance(_cursor.ReadLength(1));
                break;
            case NbtTagType.String:
                _cursor.ReadStringBytes();
                break;
            default:
                var elementType = type == NbtTagType.IntArray ? NbtTagType.Int : NbtTagType.Long;
                var length = _cursor.ReadLength(_cursor.MinimumSize(elementType));
                if (FixedSize(elementType) is > 0 and var elementSize)
                {
                    _cursor.Advance(length * elementSize);
                    break;
                }

                for (var i = 0; i < length; i++)
                {
                    SkipPayload(elementType);
                }

                break;
        }
    }

    private readonly int FixedSize(NbtTagType type) => FixedSize(type, _cursor.Format);

    private static int FixedSize(NbtTagType type, NbtFormat format) => type switch
    {
        NbtTagType.Byte => 1,
        NbtTagType.Short => 2,
        NbtTagType.Float => 4,
        NbtTagType.Double => 8,
        NbtTagType.Int when format != NbtFormat.BedrockNetwork => 4,
        NbtTagType.Long when format != NbtFormat.BedrockNetwork => 8,
        _ => 0,
    };

    private static uint FixedSizeTypes(NbtFormat format)
    {
        var types = 0u;
        for (var type = NbtTagType.Byte; type <= NbtTagType.LongArray; type++)
        {
            types |= FixedSize(type, format) > 0 ? 1u << (int)type : 0;
        }

        return types;
    }

    [UnscopedRef]
    private ref Frame FrameAt(int depth) => ref (uint)depth < InlineFrames
        ? ref Unsafe.Add(ref Unsafe.As<FrameBuffer, Frame>(ref _inlineFrames), depth)
        : ref _moreFrames![depth - InlineFrames];

    private record struct Frame(bool IsList, NbtTagType ElementType, int Remaining);

    [InlineArray(InlineFrames)]
    private struct FrameBuffer
    {
        private Frame _first;
    }
}

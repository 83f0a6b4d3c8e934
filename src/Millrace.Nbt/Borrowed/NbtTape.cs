using System.Buffers;
using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Borrowed;

/// <summary>One tag of a borrowed document: where its name and payload lie in the input, and where its subtree ends on the tape.</summary>
internal struct NbtTapeEntry
{
    /// <summary>The offset of the name's length prefix; -1 for a list element or a nameless root.</summary>
    public int Name;

    /// <summary>
    /// The offset of the payload: a number itself, a string's length prefix, the first element of an array or a list,
    /// the first tag of a compound.
    /// </summary>
    public int Payload;

    /// <summary>The elements of an array or a list, the tags of a compound; not written for numbers and strings (the tape is rented, so it holds whatever was there).</summary>
    public int Count;

    /// <summary>The tape index after this tag and everything in it: its next sibling's.</summary>
    public int Next;

    public NbtTagType Type;

    /// <summary>A list's element type; written for lists only.</summary>
    public NbtTagType ElementType;
}

/// <summary>
/// Builds a borrowed document's tape: one pass over uncompressed NBT that checks what the tree reader checks (tag ids,
/// every length against the bytes that remain, nesting, an End list with elements, trailing bytes) and records each
/// tag's offsets instead of decoding it. Strings are left undecoded (checked when decoded); lists of fixed-size numbers
/// get one entry, their elements are read in place. Errors are the tree reader's: same code, offset and tag path.
/// </summary>
/// <remarks>
/// It reads the bytes directly instead of through <see cref="NbtCursor"/>: its byte order is a type argument, so the
/// loop has no flavour tests, and a length read is checked once, as a whole tag's extent. That is what makes it faster
/// than the pull reader's <c>Skip</c>, which it must beat while doing more.
/// </remarks>
internal static class NbtTape
{
    // Tags are at least 1 byte and typically 8-16 in real files: the first guess rarely needs growing, and is capped
    // so a large file of arrays does not rent a tape it will not fill.
    private const int BytesPerEntryGuess = 8;
    private const int MaxFirstEntries = 16 * 1024;

    /// <summary>Builds the tape of <paramref name="data"/>; the rented array goes back to the pool through <see cref="Return"/>.</summary>
    public static NbtTapeEntry[] Build(ReadOnlySpan<byte> data, NbtReaderOptions options, out int count) =>
        options.Format switch
        {
            NbtFormat.Java => Build<BigEndian>(data, options, namedRoot: true, out count),
            NbtFormat.JavaNetwork => Build<BigEndian>(data, options, namedRoot: false, out count),
            _ => Build<LittleEndian>(data, options, namedRoot: true, out count),
        };

    /// <summary>
    /// Returns a tape to the pool. One sized exactly to the quota was allocated, and is left to the collector unless its
    /// size is one the pool keeps (a power of two from 16: shorter ones it refuses).
    /// </summary>
    public static void Return(NbtTapeEntry[] tape)
    {
        if (tape.Length >= 16 && BitOperations.IsPow2(tape.Length))
        {
            ArrayPool<NbtTapeEntry>.Shared.Return(tape);
        }
    }

    private static NbtTapeEntry[] Build<TOrder>(ReadOnlySpan<byte> data, NbtReaderOptions options, bool namedRoot, out int count)
        where TOrder : struct, IByteOrder
    {
        var state = new State
        {
            Tape = NewTape(BitOperations.RoundUpToPowerOf2((uint)Math.Clamp(data.Length / BytesPerEntryGuess, 16, MaxFirstEntries)), options.MaxBytes),
            Frames = ArrayPool<Frame>.Shared.Rent(16),
            Current = -1,
        };
        try
        {
            count = Walk<TOrder>(data, options, namedRoot, ref state);
            return state.Tape;
        }
        catch (NbtFormatException exception)
        {
            AddPath(exception, data, options.Format, state);
            Return(state.Tape);
            throw;
        }
        catch
        {
            Return(state.Tape);
            throw;
        }
        finally
        {
            ArrayPool<Frame>.Shared.Return(state.Frames);
        }
    }

    // One tag at a time, every check in the tree reader's order; inside compounds, the run below does the common tags
    // faster. The arrays live in locals (state gets them back when they change, for the error path).
    private static int Walk<TOrder>(ReadOnlySpan<byte> data, NbtReaderOptions options, bool namedRoot, ref State state)
        where TOrder : struct, IByteOrder
    {
        ref var bytes = ref MemoryMarshal.GetReference(data);
        var length = data.Length;
        var maxDepth = options.MaxDepth;
        var tape = state.Tape;
        var frames = state.Frames;
        var count = 0;
        var depth = 0;
        var pos = 0;

        if (length == 0)
        {
            NbtThrow.Truncated(1, 0);
        }

        var type = (NbtTagType)bytes;
        if (type == NbtTagType.End)
        {
            NbtThrow.RootIsEnd(0);
        }

        CheckType(type, 0);
        pos = 1;
        var name = -1;
        if (namedRoot)
        {
            name = pos;
            pos = AfterString<TOrder>(ref bytes, length, pos);
        }

        while (true)
        {
        Begin:
            // The tag (type, name) whose payload starts at pos: its entry first, so an error in it names it in the path.
            if (count == tape.Length)
            {
                tape = state.Tape = Grown(tape, count, options.MaxBytes, pos);
            }

            state.Current = count;
            ref var entry = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(tape), count++);
            entry.Name = name;
            entry.Payload = pos;
            entry.Next = count;
            entry.Type = type;
            var remaining = length - pos;
            var size = NumberSizes[(int)type];
            if (size != 0)
            {
                if (remaining < size)
                {
                    NbtThrow.Truncated(size, pos);
                }

                pos += size;
            }
            else if (type == NbtTagType.String)
            {
                pos = AfterString<TOrder>(ref bytes, length, pos);
            }
            else if (type is NbtTagType.Compound or NbtTagType.List)
            {
                if (depth >= maxDepth)
                {
                    NbtThrow.TooDeep(maxDepth, pos);
                }

                var kind = NbtTagType.End;
                var elements = 0;
                if (type == NbtTagType.List)
                {
                    if (remaining == 0)
                    {
                        NbtThrow.Truncated(1, pos);
                    }

                    kind = (NbtTagType)Unsafe.Add(ref bytes, pos);
                    CheckType(kind, pos);
                    var elementSize = NumberSizes[(int)kind];
                    elements = Length<TOrder>(ref bytes, pos + 1, remaining - 1, MinimumSize(kind));
                    entry.Count = elements;
                    entry.ElementType = kind;
                    entry.Payload = pos + 5;
                    pos += 5;
                    if (kind == NbtTagType.End)
                    {
                        if (elements > 0)
                        {
                            NbtThrow.EndListWithElements(elements, pos - 4);
                        }

                        goto Next;
                    }

                    if (elementSize != 0)
                    {
                        // Numbers: read in place, no entry each.
                        pos += elements * elementSize;
                        goto Next;
                    }
                }

                if (depth == frames.Length)
                {
                    frames = state.Frames = Grown(frames);
                }

                frames[depth++] = new Frame(count - 1, kind, elements);
                state.Depth = depth;
            }
            else
            {
                // Byte, int and long arrays.
                var elementSize = type == NbtTagType.ByteArray ? 1 : type == NbtTagType.IntArray ? 4 : 8;
                var elements = Length<TOrder>(ref bytes, pos, remaining, elementSize);
                entry.Count = elements;
                entry.Payload = pos + 4;
                pos += 4 + (elements * elementSize);
            }

        Next:
            // The next tag: the next element of an open list, or the next named tag of an open compound, closing the
            // containers that end on the way.
            state.Current = -1;
            while (true)
            {
            NextTag:
                if (depth == 0)
                {
                    if (pos < length)
                    {
                        NbtThrow.TrailingBytes(length - pos, pos);
                    }

                    return count;
                }

                ref var frame = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(frames), depth - 1);
                if (frame.Kind != NbtTagType.End)
                {
                    if (frame.Remaining > 0)
                    {
                        frame.Remaining--;
                        type = frame.Kind;
                        name = -1;
                        break;
                    }

                    tape[frame.Entry].Next = count;
                    state.Depth = --depth;
                    continue;
                }

                // The run: a compound's tags one after another, with its count of tags in a register, going into
                // nested compounds and lists of compounds and back out at their ends without the steps above. It
                // checks each tag's extent once, as a whole, and leaves any tag that does not fit (or that it does not
                // take: arrays, lists of anything else, a limit reached) to the careful steps, which say exactly what
                // is wrong. So it never throws, and the paths and offsets of errors are the tree reader's.
                var members = frame.Remaining;
                while (true)
                {
                    // The run's count of entries in a variable of its own, which the JIT keeps in a register.
                    var run = count;
                    while (pos < length && run < tape.Length)
                    {
                        var memberType = Unsafe.Add(ref bytes, pos);
                        if (memberType == 0)
                        {
                            // The compound's end: the run goes on in its parent compound, or in the next compound of
                            // its parent list; anything else is for the loop above.
                            pos++;
                            ref var closed = ref tape[frame.Entry];
                            closed.Next = run;
                            closed.Count = members;
                            state.Depth = --depth;
                            if (depth == 0)
                            {
                                count = run;
                                goto NextTag;
                            }

                            frame = ref frames[depth - 1];
                            if (frame.Kind == NbtTagType.Compound && frame.Remaining == 0)
                            {
                                // The last compound of a list: the list ends too.
                                tape[frame.Entry].Next = run;
                                state.Depth = --depth;
                                if (depth == 0)
                                {
                                    count = run;
                                    goto NextTag;
                                }

                                frame = ref frames[depth - 1];
                            }

                            if (frame.Kind == NbtTagType.End)
                            {
                                members = frame.Remaining;
                                continue;
                            }

                            if (frame.Kind != NbtTagType.Compound || frame.Remaining == 0 || run == tape.Length || depth >= maxDepth || depth == frames.Length)
                            {
                                count = run;
                                goto NextTag;
                            }

                            frame.Remaining--;
                            EnterElement(tape, ref run, frames, ref depth, ref state, pos);
                            frame = ref frames[depth - 1];
                            members = 0;
                            continue;
                        }

                        var end = NbtMemberKinds.EndOfValue<TOrder>(ref bytes, length, pos, out var kind, out var payload);
                        if (end != 0)
                        {
                            // A number or a string: its extent is checked below.
                        }
                        else if (kind == NbtMemberKinds.Compound && (uint)payload <= (uint)length && depth < maxDepth && depth < frames.Length)
                        {
                            // A compound inside a compound: entered here, its parent's run kept in the parent's frame.
                            ref var nested = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(tape), run++);
                            nested.Name = pos + 1;
                            nested.Payload = payload;
                            nested.Type = NbtTagType.Compound;
                            frame.Remaining = members + 1;
                            frames[depth++] = new Frame(run - 1, NbtTagType.End, 0);
                            state.Depth = depth;
                            frame = ref frames[depth - 1];
                            members = 0;
                            pos = payload;
                            continue;
                        }
                        else if (kind == NbtMemberKinds.List && (uint)payload + 5 <= (uint)length && depth + 2 <= maxDepth && depth + 2 <= frames.Length && run + 2 <= tape.Length)
                        {
                            // A list of numbers, read in place, or of compounds, whose first the run goes into.
                            var elementType = Unsafe.Add(ref bytes, payload);
                            var elementKind = NbtMemberKinds.Of[elementType];
                            var elements = TOrder.ReadInt32(ref Unsafe.Add(ref bytes, payload + 1));
                            var first = payload + 5;
                            var elementSize = elementKind == NbtMemberKinds.Compound ? 1 : elementKind;
                            if (elements < 0 || (uint)(elementSize - 1) >= 8 || (ulong)elements * (uint)elementSize > (uint)(length - first) || (elementKind == NbtMemberKinds.Compound && elements == 0))
                            {
                                break;
                            }

                            ref var list = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(tape), run++);
                            list.Name = pos + 1;
                            list.Payload = first;
                            list.Next = run;
                            list.Type = NbtTagType.List;
                            list.Count = elements;
                            list.ElementType = (NbtTagType)elementType;
                            members++;
                            if (elementKind != NbtMemberKinds.Compound)
                            {
                                pos = first + (elements * elementSize);
                                continue;
                            }

                            frame.Remaining = members;
                            frames[depth++] = new Frame(run - 1, NbtTagType.Compound, elements - 1);
                            EnterElement(tape, ref run, frames, ref depth, ref state, first);
                            frame = ref frames[depth - 1];
                            members = 0;
                            pos = first;
                            continue;
                        }
                        else
                        {
                            break;
                        }

                        // Unsigned: an extent past int.MaxValue wraps negative, and is as much too long.
                        if ((uint)end > (uint)length)
                        {
                            break;
                        }

                        ref var member = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(tape), run++);
                        member.Name = pos + 1;
                        member.Payload = payload;
                        member.Next = run;
                        member.Type = (NbtTagType)memberType;
                        members++;
                        pos = end;
                    }

                    count = run;

                    // The compound's end, or a tag for the path above.
                    if (pos >= length)
                    {
                        NbtThrow.Truncated(1, pos);
                    }

                    type = (NbtTagType)Unsafe.Add(ref bytes, pos);
                    if (type == NbtTagType.End)
                    {
                        pos++;
                        ref var compound = ref tape[frame.Entry];
                        compound.Next = count;
                        compound.Count = members;
                        state.Depth = --depth;
                        break;
                    }

                    CheckType(type, pos);
                    frame.Remaining = members + 1;
                    name = pos + 1;
                    pos = AfterString<TOrder>(ref bytes, length, pos + 1);
                    goto Begin;
                }
            }
        }
    }

    // Inside the run: a compound that is a list's element gets its entry and the top frame; the caller has checked
    // that both have room and that the depth allows it.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void EnterElement(NbtTapeEntry[] tape, ref int run, Frame[] frames, ref int depth, ref State state, int payload)
    {
        ref var element = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(tape), run++);
        element.Name = -1;
        element.Payload = payload;
        element.Type = NbtTagType.Compound;
        frames[depth++] = new Frame(run - 1, NbtTagType.End, 0);
        state.Depth = depth;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void CheckType(NbtTagType type, int offset)
    {
        if (type > NbtTagType.LongArray)
        {
            NbtThrow.InvalidTagType((byte)type, offset);
        }
    }

    // A string's length prefix at pos and its bytes: the offset after them.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int AfterString<TOrder>(ref byte bytes, int length, int pos)
        where TOrder : struct, IByteOrder
    {
        if (length - pos < 2)
        {
            NbtThrow.Truncated(2, pos);
        }

        var size = TOrder.ReadUInt16(ref Unsafe.Add(ref bytes, pos));
        if (length - pos - 2 < size)
        {
            NbtThrow.BadLength(SpanCursorStatus.BeyondInput, size, length - pos - 2, pos);
        }

        return pos + 2 + size;
    }

    // An array's or a list's element count at pos, checked against the bytes that remain after it.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int Length<TOrder>(ref byte bytes, int pos, int remaining, int minimumSize)
        where TOrder : struct, IByteOrder
    {
        if (remaining < 4)
        {
            NbtThrow.Truncated(4, pos);
        }

        var elements = TOrder.ReadInt32(ref Unsafe.Add(ref bytes, pos));
        if (elements < 0 || (ulong)elements * (uint)minimumSize > (ulong)(remaining - 4))
        {
            NbtThrow.BadLength(elements < 0 ? SpanCursorStatus.Negative : SpanCursorStatus.BeyondInput, elements, remaining - 4, pos);
        }

        return elements;
    }

    // The size of each number type by tag id, 0 for the rest: the tags read by skipping a fixed count of bytes.
    private static ReadOnlySpan<byte> NumberSizes => [0, 1, 2, 4, 8, 4, 8, 0, 0, 0, 0, 0, 0];

    private static int MinimumSize(NbtTagType type) => type switch
    {
        NbtTagType.End => 0,
        NbtTagType.Byte or NbtTagType.Compound => 1,
        NbtTagType.Short or NbtTagType.String => 2,
        NbtTagType.Long or NbtTagType.Double => 8,
        _ => 4,
    };

    private static Frame[] Grown(Frame[] frames)
    {
        var grown = ArrayPool<Frame>.Shared.Rent(frames.Length * 2);
        frames.AsSpan().CopyTo(grown);
        ArrayPool<Frame>.Shared.Return(frames);
        return grown;
    }

    // The tape counts against MaxBytes like a tree does, so a small hostile input cannot make a huge tape. Tapes
    // double from a power of two, so the pool gives them at exactly the size asked; the last one before the quota is
    // allocated at exactly the quota, so the loop's one capacity test is also the quota's.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static NbtTapeEntry[] Grown(NbtTapeEntry[] tape, int count, long maxBytes, int offset)
    {
        if (count >= maxBytes / Unsafe.SizeOf<NbtTapeEntry>())
        {
            NbtThrow.QuotaExceeded(maxBytes, offset);
        }

        var grown = NewTape((long)count * 2, maxBytes);
        tape.AsSpan(0, count).CopyTo(grown);
        Return(tape);
        return grown;
    }

    private static NbtTapeEntry[] NewTape(long entries, long maxBytes)
    {
        var allowed = Math.Min(maxBytes / Unsafe.SizeOf<NbtTapeEntry>(), Array.MaxLength);
        return entries <= allowed
            ? ArrayPool<NbtTapeEntry>.Shared.Rent((int)entries)
            : GC.AllocateUninitializedArray<NbtTapeEntry>((int)allowed);
    }

    // The tag path of an error, as the tree reader's: each open container's name or index, then the tag being read.
    private static void AddPath(NbtFormatException exception, ReadOnlySpan<byte> data, NbtFormat format, State state)
    {
        var (tape, frames) = (state.Tape, state.Frames);
        if (state.Current >= 0 && (state.Depth == 0 || frames[state.Depth - 1].Entry != state.Current))
        {
            PrependSegment(exception, data, format, tape, frames, state.Current, state.Depth);
        }

        for (var level = state.Depth - 1; level >= 0; level--)
        {
            PrependSegment(exception, data, format, tape, frames, frames[level].Entry, level);
        }
    }

    // A tag's path segment: its index in a list, its name in a compound, the root's name unless it is empty.
    private static void PrependSegment(NbtFormatException exception, ReadOnlySpan<byte> data, NbtFormat format, NbtTapeEntry[] tape, Frame[] frames, int entry, int parentDepth)
    {
        if (parentDepth > 0 && frames[parentDepth - 1].Kind != NbtTagType.End)
        {
            var list = frames[parentDepth - 1];
            exception.PrependPath(tape[list.Entry].Count - list.Remaining - 1);
            return;
        }

        var name = tape[entry].Name;
        if (name < 0)
        {
            return;
        }

        var text = NameForPath(data, name, format);
        if (parentDepth > 0 || text.Length > 0)
        {
            exception.PrependPath(text);
        }
    }

    // A name as the path shows it: decoded as the tree reader would (it had no error of its own to get that far).
    private static string NameForPath(ReadOnlySpan<byte> data, int offset, NbtFormat format)
    {
        var length = format is NbtFormat.Java or NbtFormat.JavaNetwork ? BinaryPrimitives.ReadUInt16BigEndian(data[offset..]) : BinaryPrimitives.ReadUInt16LittleEndian(data[offset..]);
        var bytes = data.Slice(offset + 2, length);
        return format is NbtFormat.Java or NbtFormat.JavaNetwork && ModifiedUtf8.TryDecode(bytes, out var text, out _) ? text : Encoding.UTF8.GetString(bytes);
    }

    /// <summary>An open container: a compound counting its tags up, or a list counting down the elements still to read.</summary>
    private struct Frame(int entry, NbtTagType kind, int remaining)
    {
        public readonly int Entry = entry;

        /// <summary>A list's element type; <see cref="NbtTagType.End"/> for a compound (a list of End tags is empty and never open).</summary>
        public readonly NbtTagType Kind = kind;

        public int Remaining = remaining;
    }

    /// <summary>The arrays of a build, and how far it got, for the error path.</summary>
    private struct State
    {
        public NbtTapeEntry[] Tape;
        public Frame[] Frames;

        /// <summary>The tag whose payload is being read; -1 between tags.</summary>
        public int Current;

        /// <summary>The containers open.</summary>
        public int Depth;
    }
}

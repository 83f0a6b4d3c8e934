using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Millrace.Nbt.Borrowed;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Reads a tree in two passes: the tape (<see cref="NbtTape"/>) checks the input's structure and counts every container's
/// tags, then the tree is built from it with none of the checking reader's per-tag checks, each compound and list allocated
/// at its final size.
/// </summary>
/// <remarks>
/// Only valid input is read here. What the tape does not check, and only a tree can fail (the byte quota as the
/// checking reader charges it, a string that does not decode, the thread's stack), is thrown without a tag path, and so
/// is every error of the tape (its own quota too: 20 bytes a tag); the caller then reads the input again with
/// <see cref="NbtCheckingTreeReader"/> (<see cref="NbtDocumentReader"/> makes the choice), which reports its own error, or reads what only the tape refused. Its frames are
/// smaller than the one-pass reader's, so with a raised <see cref="NbtReaderOptions.MaxDepth"/> it may build a tree
/// nested deeper than the one-pass reader's stack would allow. So a read's errors are the checking reader's by
/// construction, and this path only has to agree with it on valid input: the same tags, names, strings (shared the
/// same way) and quota. It trusts the tape's structure, not its offsets: every read of the input is bounds-checked.
/// </remarks>
internal static class NbtTapeTreeBuilder
{
    /// <summary>Reads a document from uncompressed bytes; <see langword="null"/> when the tree reader must read it instead.</summary>
    /// <param name="data">The bytes.</param>
    /// <param name="options">The flavour and limits.</param>
    /// <returns>The document, or <see langword="null"/> (an error, or the Bedrock network flavour, whose numbers the tape cannot read in place).</returns>
    public static NbtDocument? TryRead(ReadOnlySpan<byte> data, NbtReaderOptions options)
    {
        if (options.Format == NbtFormat.BedrockNetwork)
        {
            return null;
        }

        NbtTapeEntry[] tape;
        try
        {
            tape = NbtTape.Build(data, options, out _);
        }
        catch (NbtFormatException)
        {
            return null;
        }

        try
        {
            return options.Format == NbtFormat.Bedrock
                ? new Builder<LittleEndian>(data, tape, options).Document()
                : new Builder<BigEndian>(data, tape, options).Document();
        }
        catch (NbtFormatException)
        {
            return null;
        }
        finally
        {
            NbtTape.Return(tape);
        }
    }

    private ref struct Builder<TOrder>
        where TOrder : struct, IByteOrder
    {
        private const int TagOverhead = NbtCheckingTreeReader.TagOverhead;

        private readonly ReadOnlySpan<byte> _data;
        private readonly NbtTapeEntry[] _tape;
        private readonly NbtReaderOptions _options;

        // For decoding a string that is not ASCII, in the flavour's encoding.
        private readonly NbtCursor _cursor;
        private NbtStringTable _strings;
        private long _accounted;
        private int _depth;

        public Builder(ReadOnlySpan<byte> data, NbtTapeEntry[] tape, NbtReaderOptions options)
        {
            _data = data;
            _tape = tape;
            _options = options;
            _cursor = new NbtCursor(data, options.Format);
        }

        public NbtDocument Document()
        {
            ref readonly var root = ref _tape[0];

            // The root's name as the tree reader reads it: decoded, neither cached nor charged.
            string? name = null;
            if (root.Name >= 0)
            {
                var length = TOrder.ReadUInt16(ref At(root.Name, sizeof(ushort)));
                name = _cursor.Decode(_data.Slice(root.Name + 2, length), root.Name + 2);
            }

            return new NbtDocument(name, Tag(0, root.Type));
        }

        private NbtTag Tag(int index, NbtTagType type)
        {
            Charge(TagOverhead);
            ref readonly var entry = ref _tape[index];
            switch (type)
            {
                case NbtTagType.String:
                    {
                        var text = _strings.Get(_data, entry.Payload + 2, TOrder.ReadUInt16(ref At(entry.Payload, sizeof(ushort))), _cursor);
                        Charge(2L * text.Length);
                        return new NbtString(text);
                    }

                case NbtTagType.Compound:
                    return Compound(index);
                case NbtTagType.List:
                    return List(index);
                case NbtTagType.ByteArray:
                    Charge(entry.Count);
                    return new NbtByteArray(_data.Slice(entry.Payload, entry.Count).ToArray());
                case NbtTagType.IntArray:
                    return new NbtIntArray(Numbers<int>(in entry));
                case NbtTagType.LongArray:
                    return new NbtLongArray(Numbers<long>(in entry));
                case >= NbtTagType.Byte and <= NbtTagType.Double:
                    return Number(type, ref At(entry.Payload, NbtMemberKinds.Of[(int)type]));
                default:
                    // The tape never records an End tag: a list of them has no elements.
                    throw new UnreachableException();
            }
        }

        private NbtCompound Compound(int index)
        {
            Enter();
            var tags = new KeyValuePair<string, NbtTag>[_tape[index].Count];
            var member = index + 1;
            for (var i = 0; i < tags.Length; i++)
            {
                ref readonly var entry = ref _tape[member];
                var length = TOrder.ReadUInt16(ref At(entry.Name, sizeof(ushort)));
                var name = _strings.GetName(_data, entry.Name + 2, length, _cursor);
                Charge(TagOverhead + (2L * name.Length));
                tags[i] = new KeyValuePair<string, NbtTag>(name, Tag(member, entry.Type));
                member = entry.Next;
            }

            _depth--;
            return new NbtCompound(tags);
        }

        private NbtList List(int index)
        {
            Enter();
            ref readonly var entry = ref _tape[index];
            var count = entry.Count;
            var elementType = entry.ElementType;
            Charge(4L * count);
            var list = new NbtList(elementType, count);
            var elements = list.AddSlots(count);
            if (elementType is >= NbtTagType.Byte and <= NbtTagType.Double)
            {
                var size = NbtMemberKinds.Of[(int)elementType];
                // Numbers are read in place: the tape has no entry for each.
                Charge((long)TagOverhead * count);
                var numbers = _data.Slice(entry.Payload, checked(count * size));
                for (var i = 0; i < elements.Length; i++)
                {
                    elements[i] = Number(elementType, ref Unsafe.Add(ref MemoryMarshal.GetReference(numbers), i * size));
                }
            }
            else
            {
                var element = index + 1;
                for (var i = 0; i < elements.Length; i++)
                {
                    elements[i] = Tag(element, elementType);
                    element = _tape[element].Next;
                }
            }

            _depth--;
            return _options.UnwrapHeterogeneousLists ? HeterogeneousLists.Unwrap(list) : list;
        }

        private static NbtTag Number(NbtTagType type, ref byte at) => type switch
        {
            NbtTagType.Byte => new NbtByte((sbyte)at),
            NbtTagType.Short => new NbtShort((short)TOrder.ReadUInt16(ref at)),
            NbtTagType.Int => new NbtInt(TOrder.ReadInt32(ref at)),
            NbtTagType.Long => new NbtLong(TOrder.ReadInt64(ref at)),
            NbtTagType.Float => new NbtFloat(BitConverter.Int32BitsToSingle(TOrder.ReadInt32(ref at))),
            _ => new NbtDouble(BitConverter.Int64BitsToDouble(TOrder.ReadInt64(ref at))),
        };

        private T[] Numbers<T>(ref readonly NbtTapeEntry entry)
            where T : unmanaged
        {
            Charge((long)Unsafe.SizeOf<T>() * entry.Count);
            var values = new T[entry.Count];
            NbtNumberView<T>.Convert(_data.Slice(entry.Payload, checked(entry.Count * Unsafe.SizeOf<T>())), typeof(TOrder) == typeof(BigEndian), values);
            return values;
        }

        // The first of the input's bytes at offset, checked to be there with the size - 1 after it.
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private readonly ref byte At(int offset, int size) => ref MemoryMarshal.GetReference(_data.Slice(offset, size));

        private void Enter()
        {
            // The tape has checked the depth against MaxDepth; the stack is this thread's.
            if (!StackRoom.Enough(_depth++))
            {
                NbtThrow.TooDeepForStack(_depth, 0);
            }
        }

        private void Charge(long bytes)
        {
            _accounted += bytes;
            if (_accounted > _options.MaxBytes)
            {
                NbtThrow.QuotaExceeded(_options.MaxBytes, 0);
            }
        }
    }
}

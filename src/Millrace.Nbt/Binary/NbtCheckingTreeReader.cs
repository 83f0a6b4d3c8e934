using System.Buffers;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Builds a tree from uncompressed NBT bytes in one pass that checks every tag as it goes: the careful engine, which
/// reads what <see cref="NbtTapeTreeBuilder"/>'s fast two passes would not (and a borrowed document's elements made
/// owned), and says exactly where the input went wrong. The choice is <see cref="NbtDocumentReader"/>'s. Nesting is
/// counted before each recursion, so depth is bounded by <see cref="NbtReaderOptions.MaxDepth"/> and by the stack that
/// remains (a located error, never a crash); every length is checked against the bytes that remain, and every tag is
/// charged to the byte quota, before anything is allocated.
/// </summary>
internal ref struct NbtCheckingTreeReader
{
    // What the quota charges per tag beyond its payload, after Minecraft's NbtAccounter.
    internal const int TagOverhead = 16;

    private readonly NbtReaderOptions _options;
    private readonly ReadOnlySpan<byte> _data;
    private NbtCursor _cursor;

    // A compound's tags wait here, all open compounds' one after another, until its end says how many there are: the
    // compound is then made at its final size, where adding them one by one grew it and left the outgrown storage
    // behind (a fifth of what a small compound's read allocated). Rented, so a read allocates none of it.
    private KeyValuePair<string, NbtTag>[] _pending = [];
    private int _pendingCount;

    // Names and string values repeat: a repeat is found in the table instead of decoded again, and the tree holds one
    // string for them all.
    private NbtStringTable _strings;
    private long _accounted;
    private int _depth;

    public NbtCheckingTreeReader(ReadOnlySpan<byte> data, NbtReaderOptions options, int position = 0)
    {
        _options = options;
        _data = data;
        _cursor = new NbtCursor(data, options.Format, position);
    }

    /// <summary>Reads the root tag and checks that nothing follows it, in one pass that checks every tag as it goes.</summary>
    public NbtDocument ReadDocument()
    {
        try
        {
            return ReadRoot();
        }
        finally
        {
            GiveBack(ref _pending);
        }
    }

    /// <summary>Reads one tag whose payload starts at the position given: a borrowed document's element made owned.</summary>
    public NbtTag ReadTag(NbtTagType type)
    {
        try
        {
            return ReadPayload(type);
        }
        finally
        {
            GiveBack(ref _pending);
        }
    }

    private NbtDocument ReadRoot()
    {
        var type = _cursor.ReadTagType();
        if (type == NbtTagType.End)
        {
            NbtThrow.RootIsEnd(0);
        }

        var name = _options.Format == NbtFormat.JavaNetwork ? null : _cursor.ReadString();
        NbtTag root;
        try
        {
            root = ReadPayload(type);
        }
        catch (NbtFormatException exception) when (!string.IsNullOrEmpty(name) && exception.PrependPathAndPropagate(name))
        {
            throw;
        }

        if (_cursor.Remaining > 0)
        {
            NbtThrow.TrailingBytes(_cursor.Remaining, _cursor.Position);
        }

        return new NbtDocument(name, root);
    }

    private NbtTag ReadPayload(NbtTagType type)
    {
        Charge(TagOverhead);
        switch (type)
        {
            case NbtTagType.Byte:
                return new NbtByte((sbyte)_cursor.ReadByte());
            case NbtTagType.Short:
                return new NbtShort(_cursor.ReadInt16());
            case NbtTagType.Int:
                return new NbtInt(_cursor.ReadInt32());
            case NbtTagType.Long:
                return new NbtLong(_cursor.ReadInt64());
            case NbtTagType.Float:
                return new NbtFloat(_cursor.ReadSingle());
            case NbtTagType.Double:
                return new NbtDouble(_cursor.ReadDouble());
            case NbtTagType.ByteArray:
                {
                    var length = _cursor.ReadLength(1);
                    Charge(length);
                    return new NbtByteArray(_cursor.Take(length).ToArray());
                }

            case NbtTagType.String:
                {
                    var offset = _cursor.Position;
                    var text = _strings.Read(_data, ref _cursor);
                    Charge(2L * text.Length, offset);
                    return new NbtString(text);
                }

            case NbtTagType.IntArray:
                {
                    var length = _cursor.ReadLength(_cursor.MinimumSize(NbtTagType.Int));
                    Charge(4L * length);
                    var values = new int[length];
                    _cursor.ReadInt32s(values);
                    return new NbtIntArray(values);
                }

            case NbtTagType.LongArray:
                {
                    var length = _cursor.ReadLength(_cursor.MinimumSize(NbtTagType.Long));
                    Charge(8L * length);
                    var values = new long[length];
                    _cursor.ReadInt64s(values);
                    return new NbtLongArray(values);
                }

            case NbtTagType.List:
                return ReadList();
            default:
                return ReadCompound();
        }
    }

    private NbtList ReadList()
    {
        Enter();
        var elementType = _cursor.ReadTagType();
        var countOffset = _cursor.Position;
        var count = _cursor.ReadLength(elementType == NbtTagType.End ? 0 : _cursor.MinimumSize(elementType));
        if (elementType == NbtTagType.End && count > 0)
        {
            NbtThrow.EndListWithElements(count, countOffset);
        }

        Charge(4L * count);
        var list = new NbtList(elementType, count);
        for (var i = 0; i < count; i++)
        {
            try
            {
                list.AddUnchecked(ReadPayload(elementType));
            }
            catch (NbtFormatException exception) when (exception.PrependPathAndPropagate(i))
            {
                throw;
            }
        }

        _depth--;
        return _options.UnwrapHeterogeneousLists ? HeterogeneousLists.Unwrap(list) : list;
    }

    private NbtCompound ReadCompound()
    {
        Enter();
        var first = _pendingCount;
        while (true)
        {
            var type = _cursor.ReadTagType();
            if (type == NbtTagType.End)
            {
                break;
            }

            var nameOffset = _cursor.Position;
            var name = _strings.ReadName(_data, ref _cursor);
            Charge(TagOverhead + (2L * name.Length), nameOffset);
            NbtTag tag;
            try
            {
                tag = ReadPayload(type);
            }
            catch (NbtFormatException exception) when (exception.PrependPathAndPropagate(name))
            {
                throw;
            }

            if (_pendingCount == _pending.Length)
            {
                GrowPending();
            }

            _pending[_pendingCount++] = new KeyValuePair<string, NbtTag>(name, tag);
        }

        var compound = new NbtCompound(_pending.AsSpan(first, _pendingCount - first));
        _pendingCount = first;
        _depth--;
        return compound;
    }

    private void GrowPending()
    {
        var grown = ArrayPool<KeyValuePair<string, NbtTag>>.Shared.Rent(Math.Max(64, _pending.Length * 2));
        _pending.AsSpan(0, _pendingCount).CopyTo(grown);
        GiveBack(ref _pending);
        _pending = grown;
    }

    // Returns a rented array (none when it is the empty one) and forgets it; only references, cleared so the pool keeps
    // no tree alive.
    private static void GiveBack<T>(ref T[] array)
    {
        if (array.Length > 0)
        {
            ArrayPool<T>.Shared.Return(array, clearArray: true);
            array = [];
        }
    }

    private void Enter()
    {
        if (++_depth > _options.MaxDepth)
        {
            NbtThrow.TooDeep(_options.MaxDepth, _cursor.Position);
        }

        // A raised MaxDepth must never become a crash: when the thread's stack runs short first, that is reported.
        if (!StackRoom.Enough(_depth - 1))
        {
            NbtThrow.TooDeepForStack(_depth, _cursor.Position);
        }
    }

    private void Charge(long bytes) => Charge(bytes, _cursor.Position);

    private void Charge(long bytes, long offset)
    {
        _accounted += bytes;
        if (_accounted > _options.MaxBytes)
        {
            NbtThrow.QuotaExceeded(_options.MaxBytes, offset);
        }
    }
}

using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Writes a tree in one flavour straight into an <see cref="IBufferWriter{T}"/>: it asks for a span, fills it,
/// and advances only when the span runs out or the tree ends, so a reused buffer writer sees no allocation.
/// </summary>
internal ref struct NbtTreeWriter
{
    private const int MinimumChunk = 256;

    private readonly IBufferWriter<byte> _output;
    private readonly NbtFormat _format;
    private Span<byte> _span;
    private int _buffered;

    public NbtTreeWriter(IBufferWriter<byte> output, NbtFormat format)
    {
        _output = output;
        _format = format;
        _span = output.GetSpan(MinimumChunk);
        _buffered = 0;
    }

    private readonly bool LittleEndian => _format is NbtFormat.Bedrock or NbtFormat.BedrockNetwork;

    private readonly bool Varints => _format == NbtFormat.BedrockNetwork;

    public void WriteDocument(string? name, NbtTag root)
    {
        WriteByte((byte)root.Type);
        if (_format != NbtFormat.JavaNetwork)
        {
            WriteString(name ?? string.Empty);
        }

        WritePayload(root);
        _output.Advance(_buffered);
        _buffered = 0;
    }

    private void WritePayload(NbtTag tag)
    {
        switch (tag)
        {
            case NbtByte value:
                WriteByte((byte)value.Value);
                break;
            case NbtShort value:
                WriteInt16(value.Value);
                break;
            case NbtInt value:
                WriteInt32(value.Value);
                break;
            case NbtLong value:
                WriteInt64(value.Value);
                break;
            case NbtFloat value:
                WriteFixed32(BitConverter.SingleToInt32Bits(value.Value));
                break;
            case NbtDouble value:
                WriteFixed64(BitConverter.DoubleToInt64Bits(value.Value));
                break;
            case NbtByteArray value:
                WriteInt32(value.Value.Length);
                WriteBytes(value.Value);
                break;
            case NbtString value:
                WriteString(value.Value);
                break;
            case NbtIntArray value:
                WriteInt32(value.Value.Length);
                foreach (var element in value.Value)
                {
                    WriteInt32(element);
                }

                break;
            case NbtLongArray value:
                WriteInt32(value.Value.Length);
                foreach (var element in value.Value)
                {
                    WriteInt64(element);
                }

                break;
            case NbtList list:
                WriteList(list);
                break;
            case NbtCompound compound:
                foreach (var (name, child) in compound)
                {
                    WriteByte((byte)child.Type);
                    WriteString(name);
                    WritePayload(child);
                }

                WriteByte((byte)NbtTagType.End);
                break;
        }
    }

    private void WriteList(NbtList list)
    {
        if (HeterogeneousLists.NeedsWrapping(list))
        {
            WriteByte((byte)NbtTagType.Compound);
            WriteInt32(list.Count);
            foreach (var element in list)
            {
                WritePayload(HeterogeneousLists.Wrap(element));
            }

            return;
        }

        WriteByte((byte)(list.Count == 0 ? NbtTagType.End : list.ElementType));
        WriteInt32(list.Count);
        foreach (var element in list)
        {
            WritePayload(element);
        }
    }

    private Span<byte> Reserve(int count)
    {
        if (_span.Length - _buffered < count)
        {
            _output.Advance(_buffered);
            _buffered = 0;
            _span = _output.GetSpan(Math.Max(count, MinimumChunk));
        }

        return _span.Slice(_buffered, count);
    }

    private void WriteByte(byte value)
    {
        Reserve(1)[0] = value;
        _buffered++;
    }

    private void WriteInt16(short value)
    {
        var span = Reserve(2);
        if (LittleEndian)
        {
            BinaryPrimitives.WriteInt16LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteInt16BigEndian(span, value);
        }

        _buffered += 2;
    }

    private void WriteInt32(int value)
    {
        if (Varints)
        {
            WriteVarint(ZigZag.Encode(value));
            return;
        }

        WriteFixed32(value);
    }

    private void WriteInt64(long value)
    {
        if (Varints)
        {
            WriteVarint(ZigZag.Encode(value));
            return;
        }

        WriteFixed64(value);
    }

    private void WriteFixed32(int value)
    {
        var span = Reserve(4);
        if (LittleEndian)
        {
            BinaryPrimitives.WriteInt32LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteInt32BigEndian(span, value);
        }

        _buffered += 4;
    }

    private void WriteFixed64(long value)
    {
        var span = Reserve(8);
        if (LittleEndian)
        {
            BinaryPrimitives.WriteInt64LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteInt64BigEndian(span, value);
        }

        _buffered += 8;
    }

    private void WriteVarint(ulong value)
    {
        // Reserve may hand the buffered bytes on and reset the count, so it must run before the count is read.
        var span = Reserve(10);
        _buffered += Varint.Write(span, value);
    }

    private void WriteBytes(ReadOnlySpan<byte> bytes)
    {
        // Large arrays go through in chunks, so the writer is never asked for one huge span.
        while (!bytes.IsEmpty)
        {
            var chunk = Math.Min(bytes.Length, 4096);
            bytes[..chunk].CopyTo(Reserve(chunk));
            _buffered += chunk;
            bytes = bytes[chunk..];
        }
    }

    private void WriteString(string text)
    {
        if (_format is NbtFormat.Java or NbtFormat.JavaNetwork)
        {
            var length = ModifiedUtf8.GetByteCount(text);
            if (length > ModifiedUtf8.MaxByteCount)
            {
                throw new ArgumentException($"A string of {length} Modified UTF-8 bytes exceeds the format's limit of {ModifiedUtf8.MaxByteCount}.", nameof(text));
            }

            WriteInt16((short)(ushort)length);
            var span = Reserve(length);
            ModifiedUtf8.Encode(text, span);
            _buffered += length;
            return;
        }

        var byteCount = Encoding.UTF8.GetByteCount(text);
        if (Varints)
        {
            WriteVarint((uint)byteCount);
        }
        else
        {
            if (byteCount > ushort.MaxValue)
            {
                throw new ArgumentException($"A string of {byteCount} UTF-8 bytes exceeds the format's limit of {ushort.MaxValue}.", nameof(text));
            }

            WriteInt16((short)(ushort)byteCount);
        }

        var destination = Reserve(byteCount);
        _buffered += Encoding.UTF8.GetBytes(text, destination);
    }
}

using System.Buffers;
using System.Runtime.CompilerServices;

namespace Millrace;

/// <summary>
/// A writer cursor over an <see cref="IBufferWriter{T}"/>: it keeps the span the buffer writer last gave, fills it,
/// and hands the written bytes on only when the span runs out or on <see cref="Flush"/>, the shared core that the
/// format modules' writers (<c>NbtWriter</c>, <c>CompactWriter</c>) are thin flavours of.
/// </summary>
/// <remarks>
/// <para>
/// Asking the buffer writer for space on every value costs an interface call each time; the cursor asks only when
/// its span is too small, in a non-inlined slow path, so a write's fast path is one inlined compare and branch. A
/// reused buffer writer therefore sees no allocation and few calls.
/// </para>
/// <para>
/// A length that is known only once its value is written (a nested record, a list) is written in the same pass:
/// <see cref="BeginLengthPrefix"/> reserves one byte, <see cref="EndLengthPrefix"/> writes the length there, and only a
/// value of 128 bytes or more, whose varint needs more bytes, is moved up to make room. While a prefix is open the
/// cursor hands on nothing written after it, so the byte stays addressable: when the span runs out, the bytes since the
/// outermost open prefix move to the next, larger span. The alternative, walking every value once for its size and
/// once to write it, walked maps and lists at every level of nesting again.
/// </para>
/// <para>
/// The cursor is a mutable <see langword="ref struct"/>: pass it, and the writers built on it, by <see langword="ref"/>,
/// or a callee writes into a copy whose bytes are never handed on. Call <see cref="Flush"/> once the last value is
/// written: until then the buffer writer has not been told about the bytes.
/// </para>
/// </remarks>
public ref struct BufferWriterCursor
{
    /// <summary>The smallest span the cursor asks for, so that short writes do not each cost a request.</summary>
    private const int MinimumRequest = 256;

    /// <summary>The most the cursor asks for at once when copying a large run of bytes.</summary>
    private const int MaximumCopyRequest = 64 * 1024;

    // The span the buffer writer last gave, and how much of it is written: a write updates one int, not a span.
    private readonly IBufferWriter<byte> _output;
    private Span<byte> _span;
    private int _buffered;

    // Bytes handed to the buffer writer so far, so a prefix's place is an absolute position that survives a new span.
    private long _handedOn;
    private int _openPrefixes;
    private long _outermostPrefix;

    /// <summary>Initializes a cursor over <paramref name="output"/>; it asks for space on the first write.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <exception cref="ArgumentNullException"><paramref name="output"/> is <see langword="null"/>.</exception>
    public BufferWriterCursor(IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        _output = output;
        _span = default;
        _buffered = 0;
        _handedOn = 0;
        _openPrefixes = 0;
        _outermostPrefix = 0;
    }

    /// <summary>Gets the number of bytes written but not yet handed to the buffer writer.</summary>
    public readonly int Buffered => _buffered;

    /// <summary>Gets space for <paramref name="sizeHint"/> bytes; <see cref="Advance"/> then says how many were written.</summary>
    /// <param name="sizeHint">The bytes needed.</param>
    /// <returns>
    /// A span of exactly <paramref name="sizeHint"/> bytes (an <see cref="IBufferWriter{T}"/> gives at least that many; this
    /// gives the length the caller asked for, so the JIT can drop the bounds checks of fixed-size writes), valid until the
    /// next call on the cursor.
    /// </returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<byte> GetSpan(int sizeHint)
    {
        if ((uint)sizeHint > (uint)(_span.Length - _buffered))
        {
            Request(sizeHint);
        }

        return _span.Slice(_buffered, sizeHint);
    }

    /// <summary>Records that <paramref name="count"/> bytes of the span last returned by <see cref="GetSpan"/> were written.</summary>
    /// <param name="count">How many bytes, at most what <see cref="GetSpan"/> gave.</param>
    /// <remarks>
    /// Not checked here, on the hot path: a count past the span makes the next <see cref="GetSpan"/> or the
    /// <see cref="Flush"/> throw (the buffer writer refuses to advance past what it gave), never write past it.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Advance(int count) => _buffered += count;

    /// <summary>Writes one byte.</summary>
    /// <param name="value">The byte.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteByte(byte value)
    {
        GetSpan(1)[0] = value;
        _buffered++;
    }

    /// <summary>Writes bytes as they are; a large run is copied in several requests, so the buffer writer is never asked for one huge span.</summary>
    /// <param name="bytes">The bytes.</param>
    public void Write(scoped ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length <= _span.Length - _buffered)
        {
            bytes.CopyTo(_span[_buffered..]);
            _buffered += bytes.Length;
            return;
        }

        WriteInChunks(bytes);
    }

    /// <summary>Writes an unsigned LEB128 varint, as <see cref="Varint.Write(Span{byte}, ulong)"/> does.</summary>
    /// <param name="value">The value.</param>
    public void WriteVarint(ulong value)
    {
        // Reserve first: the request for space may hand the buffered bytes on and reset the count.
        var span = GetSpan(Varint.MaxLength64);
        _buffered += Varint.Write(span, value);
    }

    /// <summary>Reserves one byte for the varint length of the value written next; <see cref="EndLengthPrefix"/> fills it in.</summary>
    /// <returns>The prefix, to pass to <see cref="EndLengthPrefix"/>. Prefixes nest and end in the reverse order of their start.</returns>
    public LengthPrefix BeginLengthPrefix()
    {
        var position = _handedOn + _buffered;
        WriteByte(0);
        if (_openPrefixes++ == 0)
        {
            _outermostPrefix = position;
        }

        return new LengthPrefix(position);
    }

    /// <summary>Writes the length of what was written since <paramref name="prefix"/> began into its reserved byte, moving the value up when the length needs more.</summary>
    /// <param name="prefix">The prefix <see cref="BeginLengthPrefix"/> returned, the innermost one open.</param>
    public void EndLengthPrefix(LengthPrefix prefix)
    {
        var length = (ulong)(_handedOn + _buffered - prefix.Position - 1);
        if (length < 0x80)
        {
            _span[(int)(prefix.Position - _handedOn)] = (byte)length;
        }
        else
        {
            MoveUpForLength(prefix.Position, length);
        }

        _openPrefixes--;
    }

    /// <summary>Hands the buffered bytes to the buffer writer; the next write asks it for space again.</summary>
    /// <exception cref="InvalidOperationException">A length prefix is still open.</exception>
    public void Flush()
    {
        if (_openPrefixes != 0)
        {
            ThrowHelper.ThrowLengthPrefixOpen();
        }

        HandOn(_buffered);
        _span = default;
    }

    private void HandOn(int count)
    {
        if (count != 0)
        {
            _output.Advance(count);
            _handedOn += count;
            _buffered -= count;
        }
    }

    // The slow path: hand on what is written, then ask for a new span. Kept out of line so every fast path stays small.
    // Bytes after an open length prefix are not handed on: they move to the start of the new span, which is asked for
    // at least twice their size, so a value that grows large is moved a logarithmic number of times, not once per span.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Request(int sizeHint)
    {
        if (sizeHint < 0)
        {
            ThrowHelper.ThrowNegativeSizeHint(sizeHint);
        }

        if (_openPrefixes == 0)
        {
            HandOn(_buffered);
            _span = _output.GetSpan(Math.Max(sizeHint, MinimumRequest));
        }
        else
        {
            var start = (int)(_outermostPrefix - _handedOn);
            var pending = _buffered - start;
            var kept = ArrayPool<byte>.Shared.Rent(Math.Max(pending, 1));
            _span.Slice(start, pending).CopyTo(kept);
            HandOn(start);
            _span = _output.GetSpan((int)Math.Min(Array.MaxLength, Math.Max((long)pending + sizeHint, Math.Max(2L * pending, MinimumRequest))));
            if (_span.Length >= pending + sizeHint)
            {
                kept.AsSpan(0, pending).CopyTo(_span);
            }

            ArrayPool<byte>.Shared.Return(kept);
            sizeHint += pending;
        }

        if (_span.Length < sizeHint)
        {
            var length = _span.Length;
            _span = default;
            ThrowHelper.ThrowBufferWriterTooSmall(sizeHint, length);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void MoveUpForLength(long position, ulong length)
    {
        var extra = Varint.GetByteCount(length) - 1;
        GetSpan(extra);
        var start = (int)(position - _handedOn);
        _span[(start + 1).._buffered].CopyTo(_span[(start + 1 + extra)..]);
        Varint.Write(_span[start..], length);
        _buffered += extra;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteInChunks(scoped ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            if (_buffered == _span.Length)
            {
                Request(Math.Min(bytes.Length, MaximumCopyRequest));
            }

            var chunk = Math.Min(bytes.Length, _span.Length - _buffered);
            bytes[..chunk].CopyTo(_span[_buffered..]);
            _buffered += chunk;
            bytes = bytes[chunk..];
        }
    }
}

/// <summary>A byte reserved by <see cref="BufferWriterCursor.BeginLengthPrefix"/> for a length written once its value is: pass it back to <see cref="BufferWriterCursor.EndLengthPrefix"/>.</summary>
#pragma warning disable CA1815 // A token handed back to the cursor that made it; never compared.
public readonly struct LengthPrefix
#pragma warning restore CA1815
{
    internal LengthPrefix(long position) => Position = position;

    /// <summary>Gets the reserved byte's position, counted from the cursor's first byte.</summary>
    internal long Position { get; }
}

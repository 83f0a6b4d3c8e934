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

    /// <summary>Initializes a cursor over <paramref name="output"/>; it asks for space on the first write.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <exception cref="ArgumentNullException"><paramref name="output"/> is <see langword="null"/>.</exception>
    public BufferWriterCursor(IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        _output = output;
        _span = default;
        _buffered = 0;
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

    /// <summary>Hands the buffered bytes to the buffer writer; the next write asks it for space again.</summary>
    public void Flush()
    {
        if (_buffered != 0)
        {
            _output.Advance(_buffered);
            _buffered = 0;
        }

        _span = default;
    }

    // The slow path: hand on what is written, then ask for a new span. Kept out of line so every fast path stays small.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Request(int sizeHint)
    {
        if (sizeHint < 0)
        {
            ThrowHelper.ThrowNegativeSizeHint(sizeHint);
        }

        Flush();
        _span = _output.GetSpan(Math.Max(sizeHint, MinimumRequest));
        if (_span.Length < sizeHint)
        {
            var length = _span.Length;
            _span = default;
            ThrowHelper.ThrowBufferWriterTooSmall(sizeHint, length);
        }
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

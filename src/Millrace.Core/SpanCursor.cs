using System.Buffers;
using System.Runtime.CompilerServices;

namespace Millrace;

/// <summary>
/// A forward-only reader over a span that checks every take, length and count against the bytes that remain, the
/// bounds-checked core that the format modules' readers (<c>NbtCursor</c>, <c>CompactReader</c>) are thin flavours of.
/// </summary>
/// <remarks>
/// <para>
/// The cursor never throws for bad input: it reports a failure as <see langword="false"/> (<see cref="CanTake"/>), an
/// <see cref="OperationStatus"/> or a <see cref="SpanCursorStatus"/>, and does not move on a failed varint or count.
/// Each module then throws its own exception with its own code, message and offset from a cold throw helper, so the
/// shared code knows no module's errors and every hot path stays one inlined compare and branch.
/// </para>
/// <para>
/// <see cref="Position"/> counts from the start of the span; <see cref="Offset"/> adds the base offset given at
/// construction, so that a cursor over a nested payload still reports offsets in the outermost input.
/// </para>
/// </remarks>
public ref struct SpanCursor
{
    private readonly ReadOnlySpan<byte> _data;
    private readonly int _baseOffset;
    private int _position;

    /// <summary>Initializes a cursor over <paramref name="data"/>.</summary>
    /// <param name="data">The bytes.</param>
    /// <param name="baseOffset">The offset of <paramref name="data"/>'s first byte in the outermost input, for <see cref="Offset"/>.</param>
    /// <param name="position">Where in <paramref name="data"/> to start reading.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="position"/> is outside <paramref name="data"/>.</exception>
    public SpanCursor(ReadOnlySpan<byte> data, int baseOffset = 0, int position = 0)
    {
        // One unsigned compare: negative positions wrap above any length.
        if ((uint)position > (uint)data.Length)
        {
            ThrowHelper.ThrowPositionOutOfRange(position, data.Length);
        }

        _data = data;
        _baseOffset = baseOffset;
        _position = position;
    }

    /// <summary>Gets the index of the next byte in the span.</summary>
    public readonly int Position => _position;

    /// <summary>Gets the offset of the next byte in the outermost input: the base offset plus <see cref="Position"/>.</summary>
    public readonly int Offset => _baseOffset + _position;

    /// <summary>Gets the number of bytes left.</summary>
    public readonly int Remaining => _data.Length - _position;

    /// <summary>Gets a value indicating whether every byte has been read.</summary>
    public readonly bool End => _position >= _data.Length;

    /// <summary>Gets the bytes read since <paramref name="offset"/>, an <see cref="Offset"/> taken earlier.</summary>
    /// <param name="offset">An earlier offset of this cursor.</param>
    /// <returns>The bytes from <paramref name="offset"/> up to the current position.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="offset"/> is not an offset of this cursor's bytes read so far.</exception>
    public readonly ReadOnlySpan<byte> Since(int offset) => _data[(offset - _baseOffset).._position];

    /// <summary>Checks that <paramref name="count"/> bytes remain, before <see cref="Take"/> or <see cref="ReadByte"/>.</summary>
    /// <param name="count">How many bytes; a negative count is refused like one too large.</param>
    /// <returns><see langword="true"/> when at least <paramref name="count"/> bytes remain.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool CanTake(int count) => (uint)count <= (uint)(_data.Length - _position);

    /// <summary>Takes the next <paramref name="count"/> bytes, which <see cref="CanTake"/> said remain.</summary>
    /// <param name="count">How many bytes.</param>
    /// <returns>The bytes.</returns>
    /// <exception cref="ArgumentOutOfRangeException">Fewer than <paramref name="count"/> bytes remain: the caller skipped <see cref="CanTake"/>.</exception>
    /// <remarks>
    /// Check and take are two calls rather than one <c>TryTake(count, out span)</c> because a span returned through an
    /// <see langword="out"/> parameter stays in memory after inlining, which cost the NBT skim 10-15%; the format
    /// readers check, throw their own error when the bytes are missing, then take.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReadOnlySpan<byte> Take(int count)
    {
        var bytes = _data.Slice(_position, count);
        _position += count;
        return bytes;
    }

    /// <summary>Moves past the next <paramref name="count"/> bytes, which <see cref="CanTake"/> said remain.</summary>
    /// <param name="count">How many bytes.</param>
    /// <exception cref="ArgumentOutOfRangeException">Fewer than <paramref name="count"/> bytes remain: the caller skipped <see cref="CanTake"/>.</exception>
    /// <remarks>
    /// <see cref="Take"/> for bytes that are passed over: one compare, where a slice made and dropped still checked its
    /// bounds a second time.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Advance(int count)
    {
        if (!CanTake(count))
        {
            ThrowHelper.ThrowAdvancePastEnd(count, _data.Length - _position);
        }

        _position += count;
    }

    /// <summary>Reads the next byte, which <see cref="CanTake"/> said remains.</summary>
    /// <returns>The byte.</returns>
    /// <exception cref="IndexOutOfRangeException">No byte remains: the caller skipped <see cref="CanTake"/>.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public byte ReadByte() => _data[_position++];

    /// <summary>Reads an unsigned LEB128 varint of up to 64 bits, as <see cref="Varint.TryRead(ReadOnlySpan{byte}, out ulong, out int)"/> does.</summary>
    /// <param name="value">The value, or 0 when the status is not <see cref="OperationStatus.Done"/>.</param>
    /// <returns>
    /// <see cref="OperationStatus.Done"/>; <see cref="OperationStatus.NeedMoreData"/> when the input ends inside the varint;
    /// <see cref="OperationStatus.InvalidData"/> when it runs past 10 bytes or 64 bits. The cursor moves only on
    /// <see cref="OperationStatus.Done"/>.
    /// </returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public OperationStatus TryReadVarint(out ulong value)
    {
        // Varint reports 0 bytes used on failure, so the cursor stays put then; its own one-byte fast path inlines here.
        var status = Varint.TryRead(_data[_position..], out value, out var used);
        _position += used;
        return status;
    }

    /// <summary>Reads an unsigned LEB128 varint of up to 32 bits, as <see cref="Varint.TryRead(ReadOnlySpan{byte}, out uint, out int)"/> does.</summary>
    /// <param name="value">The value, or 0 when the status is not <see cref="OperationStatus.Done"/>.</param>
    /// <returns>
    /// <see cref="OperationStatus.Done"/>; <see cref="OperationStatus.NeedMoreData"/> when the input ends inside the varint;
    /// <see cref="OperationStatus.InvalidData"/> when it runs past 5 bytes or 32 bits. The cursor moves only on
    /// <see cref="OperationStatus.Done"/>.
    /// </returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public OperationStatus TryReadVarint(out uint value)
    {
        var status = Varint.TryRead(_data[_position..], out value, out var used);
        _position += used;
        return status;
    }

    /// <summary>
    /// Tests a length or count already read: at most <paramref name="maxCount"/>, and no more elements than the bytes
    /// that remain can hold at <paramref name="minimumElementSize"/> bytes each. The hot-path form of
    /// <see cref="CheckCount(ulong, int, int)"/>, which says why a count that does not fit was refused.
    /// </summary>
    /// <param name="count">The declared length or count.</param>
    /// <param name="maxCount">The most elements allowed; <see cref="int.MaxValue"/> when only the input bounds it.</param>
    /// <param name="minimumElementSize">The fewest bytes one element takes; 0 when elements may take none.</param>
    /// <returns><see langword="true"/> when the count fits.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxCount"/> or <paramref name="minimumElementSize"/> is negative.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool CountFits(ulong count, int maxCount, int minimumElementSize)
    {
        // Callers pass limits from validated options and constant sizes: one branch that folds away or never fires.
        if ((maxCount | minimumElementSize) < 0)
        {
            ThrowHelper.ThrowNegativeCountArgument(maxCount, minimumElementSize);
        }

        // Past the limit check count <= int.MaxValue, so the product cannot overflow 64 bits.
        return count <= (ulong)maxCount && count * (ulong)minimumElementSize <= (ulong)(_data.Length - _position);
    }

    /// <summary>
    /// Checks a length or count already read, as <see cref="CountFits"/> does, and says why it was refused. A bool test
    /// is cheaper on the hot path (a status is computed, then compared); readers call this when the count did not fit.
    /// </summary>
    /// <param name="count">The declared length or count.</param>
    /// <param name="maxCount">The most elements allowed; <see cref="int.MaxValue"/> when only the input bounds it.</param>
    /// <param name="minimumElementSize">The fewest bytes one element takes; 0 when elements may take none.</param>
    /// <returns><see cref="SpanCursorStatus.Done"/>, <see cref="SpanCursorStatus.OverLimit"/> or <see cref="SpanCursorStatus.BeyondInput"/>.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxCount"/> or <paramref name="minimumElementSize"/> is negative.</exception>
    public readonly SpanCursorStatus CheckCount(ulong count, int maxCount, int minimumElementSize)
    {
        if (CountFits(count, maxCount, minimumElementSize))
        {
            return SpanCursorStatus.Done;
        }

        return count > (ulong)maxCount ? SpanCursorStatus.OverLimit : SpanCursorStatus.BeyondInput;
    }

    /// <summary>Checks a signed length or count already read, as <see cref="CheckCount(ulong, int, int)"/> does, refusing negatives first.</summary>
    /// <param name="count">The declared length or count.</param>
    /// <param name="maxCount">The most elements allowed; <see cref="int.MaxValue"/> when only the input bounds it.</param>
    /// <param name="minimumElementSize">The fewest bytes one element takes; 0 when elements may take none.</param>
    /// <returns><see cref="SpanCursorStatus.Done"/>, <see cref="SpanCursorStatus.Negative"/>, <see cref="SpanCursorStatus.OverLimit"/> or <see cref="SpanCursorStatus.BeyondInput"/>.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxCount"/> or <paramref name="minimumElementSize"/> is negative.</exception>
    public readonly SpanCursorStatus CheckCount(long count, int maxCount, int minimumElementSize) =>
        count < 0 ? SpanCursorStatus.Negative : CheckCount((ulong)count, maxCount, minimumElementSize);
}

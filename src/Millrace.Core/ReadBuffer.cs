namespace Millrace;

/// <summary>
/// Helpers for a read buffer whose unconsumed bytes sit between a start and an end index, as in every Millrace
/// reader that pulls a stream through one pooled array.
/// </summary>
public static class ReadBuffer
{
    /// <summary>
    /// Moves the unconsumed bytes to the front of <paramref name="buffer"/>, so that the rest of it is free for the
    /// next read.
    /// </summary>
    /// <param name="buffer">The buffer.</param>
    /// <param name="start">The index of the first unconsumed byte; 0 afterwards.</param>
    /// <param name="end">The index after the last buffered byte; the number of unconsumed bytes afterwards.</param>
    /// <returns>How many consumed bytes were dropped: add it to the input offset of the buffer's first byte.</returns>
    public static int Compact(Span<byte> buffer, ref int start, ref int end)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(start);
        ArgumentOutOfRangeException.ThrowIfLessThan(end, start);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(end, buffer.Length);
        var dropped = start;
        if (dropped > 0)
        {
            buffer[start..end].CopyTo(buffer);
            end -= dropped;
            start = 0;
        }

        return dropped;
    }
}

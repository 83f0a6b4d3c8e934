using System.Globalization;
using Millrace.Compact.Wire;

namespace Millrace.Compact;

/// <summary>
/// A single record's field keys written as steps: each key's index becomes its distance from the previous key's (the
/// first's from 0), so consecutive fields of one wire type share one key byte. Compressors match that byte with the
/// value header after it, where distinct keys broke every match in two: the seed's 50 strings "value_1_N" compress
/// (Brotli) to 152 B with their keys and to 82 B with steps. (Thrift's compact protocol also writes field ids as
/// deltas, to fit them in the type byte.)
/// </summary>
/// <remarks>
/// Only the frame's compressed bodies use it, under the frame's <c>0b1000</c> flag; the record's values, nested
/// records included, are copied unchanged. A body is stepped only when its indices strictly ascend and its keys are
/// shortest varints, so that restoring gives back its exact bytes.
/// </remarks>
internal static class CompactKeySteps
{
    /// <summary>Writes <paramref name="body"/> with its keys as steps.</summary>
    /// <param name="body">A single record's fields.</param>
    /// <param name="output">Where the stepped body goes.</param>
    /// <returns><see langword="false"/> when the body is not well-formed fields with shortest keys and strictly
    /// ascending indices.</returns>
    public static bool TryWrite(ReadOnlySpan<byte> body, PooledBufferWriter output)
    {
        try
        {
            var reader = new CompactReader(body);
            var previous = 0;
            while (true)
            {
                var keyStart = reader.Offset;
                if (!reader.TryReadKey(out var index, out var wireType))
                {
                    return true;
                }

                if (index <= previous || reader.Offset - keyStart != Varint.GetByteCount(CompactWriter.Key(index, wireType)))
                {
                    return false;
                }

                var value = Value(wireType, ref reader);
                var span = output.GetSpan(Varint.MaxLength64 + value.Length);
                var keyLength = Varint.Write(span, CompactWriter.Key(index - previous, wireType));
                value.CopyTo(span[keyLength..]);
                output.Advance(keyLength + value.Length);
                previous = index;
            }
        }
        catch (CompactFormatException)
        {
            // CompactFrame.Write takes any bytes as a body; a malformed one is stored as it is, never stepped.
            return false;
        }
    }

    /// <summary>Restores the keys of a stepped body.</summary>
    /// <param name="stepped">The decompressed body, its keys as steps.</param>
    /// <param name="maxLength">The most bytes the restored body may take.</param>
    /// <param name="limitOffset">Where a restored body over the limit is located: the body's first byte in its frame.</param>
    /// <returns>The body with its keys' indices.</returns>
    /// <exception cref="CompactFormatException">A key or value is malformed or cut short, a step is 0 or leads past
    /// the largest index, or the restored body exceeds <paramref name="maxLength"/>; offsets count the stepped body.</exception>
    public static byte[] Restore(ReadOnlySpan<byte> stepped, int maxLength, int limitOffset = 0)
    {
        // Checked and measured first, so that the restored body takes one array of its exact size and nothing is
        // allocated for a body over the limit.
        var length = 0L;
        var reader = new CompactReader(stepped);
        var index = 0;
        while (!reader.End)
        {
            index = NextIndex(index, out var wireType, ref reader);
            length += Varint.GetByteCount(CompactWriter.Key(index, wireType)) + Value(wireType, ref reader).Length;
            if (length > maxLength)
            {
                // Located where the body starts, as every body over the limit is: where an implementation notices it
                // depends on how it reads.
                CompactThrow.Limit(string.Create(CultureInfo.InvariantCulture, $"The body with its field indices restored exceeds the limit of {maxLength} bytes."), limitOffset);
            }
        }

        var restored = new byte[length];
        var written = 0;
        reader = new CompactReader(stepped);
        index = 0;
        while (!reader.End)
        {
            index = NextIndex(index, out var wireType, ref reader);
            written += Varint.Write(restored.AsSpan(written), CompactWriter.Key(index, wireType));
            var value = Value(wireType, ref reader);
            value.CopyTo(restored.AsSpan(written));
            written += value.Length;
        }

        return restored;
    }

    // Reads a stepped key and gives the index it steps to.
    private static int NextIndex(int index, out WireType wireType, ref CompactReader reader)
    {
        var offset = reader.Offset;
        var key = reader.ReadVarint();
        var step = key >> 2;
        if (step == 0 || step > (ulong)(int.MaxValue - index))
        {
            CompactThrow.BadKeyStep(step, index, offset);
        }

        wireType = (WireType)(key & 3);
        return index + (int)step;
    }

    // The value the reader is at, passed over.
    private static ReadOnlySpan<byte> Value(WireType wireType, ref CompactReader reader)
    {
        var start = reader.Offset;
        reader.Skip(wireType);
        return reader.Since(start);
    }
}

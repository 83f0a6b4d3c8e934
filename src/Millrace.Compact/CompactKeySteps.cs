using System.Globalization;
using Millrace.Compact.Wire;

namespace Millrace.Compact;

/// <summary>
/// A single record's field keys written as steps: each key's index becomes its distance from the previous key's (the
/// first's from 0), so the keys of consecutive fields are one repeated byte. Compressors match a repeated key with the
/// value header after it, where distinct keys broke every match in two: the seed's 50 strings "value_1_N" compress
/// (Brotli) to 152 B with their keys and to 82 B with steps. Thrift's compact protocol writes field-id deltas for the
/// same reason.
/// </summary>
/// <remarks>
/// Only the frame's compressed bodies use it, under the frame's <c>0b1000</c> flag; the record's values, nested
/// records included, are copied unchanged, and a body whose indices do not strictly ascend is not stepped.
/// </remarks>
internal static class CompactKeySteps
{
    /// <summary>Writes <paramref name="body"/> with its keys as steps.</summary>
    /// <param name="body">A single record's fields.</param>
    /// <param name="output">Where the stepped body goes.</param>
    /// <returns><see langword="false"/> when the body is not well-formed fields with strictly ascending indices.</returns>
    public static bool TryWrite(ReadOnlySpan<byte> body, PooledBufferWriter output)
    {
        try
        {
            var reader = new CompactReader(body);
            var previous = 0;
            while (reader.TryReadKey(out var index, out var wireType))
            {
                if (index <= previous)
                {
                    return false;
                }

                Append(output, (ulong)(uint)(index - previous), wireType, ref reader);
                previous = index;
            }

            return true;
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
    /// <returns>The body with its keys' indices.</returns>
    /// <exception cref="CompactFormatException">A key or value is malformed or cut short, a step is 0 or leads past
    /// the largest index, or the restored body exceeds <paramref name="maxLength"/>; offsets count the stepped body.</exception>
    public static byte[] Restore(ReadOnlySpan<byte> stepped, int maxLength)
    {
        using var output = new PooledBufferWriter(stepped.Length + 16);
        var reader = new CompactReader(stepped);
        var index = 0UL;
        while (!reader.End)
        {
            var offset = reader.Offset;
            var key = reader.ReadVarint();
            var step = key >> 2;
            if (step == 0 || step > int.MaxValue - index)
            {
                throw new CompactFormatException(CompactErrorCodes.BadKey, string.Create(CultureInfo.InvariantCulture,
                    $"Invalid field index step {step} after index {index}: steps are at least 1 and lead to at most {int.MaxValue}."), offset);
            }

            index += step;
            Append(output, index, (WireType)(key & 3), ref reader);
            if (output.WrittenCount > maxLength)
            {
                CompactThrow.Limit(string.Create(CultureInfo.InvariantCulture, $"The body with its field indices restored exceeds the limit of {maxLength} bytes."), offset);
            }
        }

        return output.WrittenSpan.ToArray();
    }

    // Writes a key and copies the value the reader is at, passing over it.
    private static void Append(PooledBufferWriter output, ulong index, WireType wireType, ref CompactReader reader)
    {
        var start = reader.Offset;
        reader.Skip(wireType);
        var value = reader.Since(start);
        var span = output.GetSpan(Varint.MaxLength64 + value.Length);
        var keyLength = Varint.Write(span, (index << 2) | (uint)wireType);
        value.CopyTo(span[keyLength..]);
        output.Advance(keyLength + value.Length);
    }
}

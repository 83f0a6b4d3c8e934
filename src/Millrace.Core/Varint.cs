using System.Buffers;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace Millrace;

/// <summary>
/// Unsigned LEB128 variable-length integers, as used by Protocol Buffers, Bedrock NBT and Millrace.Compact:
/// seven bits a byte, least significant group first, the high bit set on every byte but the last.
/// Signed values go through <see cref="ZigZag"/> first so that small negative numbers stay short.
/// </summary>
public static class Varint
{
    /// <summary>The most bytes a 32-bit varint takes.</summary>
    public const int MaxLength32 = 5;

    /// <summary>The most bytes a 64-bit varint takes.</summary>
    public const int MaxLength64 = 10;

    /// <summary>Gets the number of bytes <paramref name="value"/> takes as a varint.</summary>
    /// <param name="value">The value.</param>
    /// <returns>From 1 to <see cref="MaxLength64"/>.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetByteCount(ulong value) => ((63 - BitOperations.LeadingZeroCount(value | 1)) / 7) + 1;

    /// <summary>Writes <paramref name="value"/> as a varint.</summary>
    /// <param name="destination">Where to write.</param>
    /// <param name="value">The value.</param>
    /// <param name="bytesWritten">How many bytes were written.</param>
    /// <returns><see langword="false"/> when <paramref name="destination"/> is too small; nothing is written then.</returns>
    public static bool TryWrite(Span<byte> destination, ulong value, out int bytesWritten)
    {
        if (value < 0x80 && !destination.IsEmpty)
        {
            destination[0] = (byte)value;
            bytesWritten = 1;
            return true;
        }

        var count = GetByteCount(value);
        if (destination.Length < count)
        {
            bytesWritten = 0;
            return false;
        }

        var last = count - 1;
        for (var i = 0; i < last; i++)
        {
            destination[i] = (byte)(value | 0x80);
            value >>= 7;
        }

        destination[last] = (byte)value;
        bytesWritten = count;
        return true;
    }

    /// <summary>Writes <paramref name="value"/> as a varint.</summary>
    /// <param name="destination">Where to write; must have room for <see cref="GetByteCount"/> bytes.</param>
    /// <param name="value">The value.</param>
    /// <returns>How many bytes were written.</returns>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is too small.</exception>
    public static int Write(Span<byte> destination, ulong value)
    {
        if (!TryWrite(destination, value, out var written))
        {
            ThrowHelper.ThrowDestinationTooSmall(nameof(destination));
        }

        return written;
    }

    /// <summary>Writes <paramref name="value"/> as a varint.</summary>
    /// <param name="writer">Where to write.</param>
    /// <param name="value">The value.</param>
    /// <returns>How many bytes were written.</returns>
    public static int Write<TWriter>(TWriter writer, ulong value)
        where TWriter : IBufferWriter<byte>
    {
        ArgumentNullException.ThrowIfNull(writer);
        var written = Write(writer.GetSpan(MaxLength64), value);
        writer.Advance(written);
        return written;
    }

    /// <summary>Reads a 64-bit varint.</summary>
    /// <param name="source">The bytes, starting with the varint.</param>
    /// <param name="value">The value read, or 0 when the status is not <see cref="OperationStatus.Done"/>.</param>
    /// <param name="bytesConsumed">How many bytes the varint took, or 0 when the status is not <see cref="OperationStatus.Done"/>.</param>
    /// <returns>
    /// <see cref="OperationStatus.Done"/>; <see cref="OperationStatus.NeedMoreData"/> when <paramref name="source"/> ends
    /// inside the varint; <see cref="OperationStatus.InvalidData"/> when it runs past 10 bytes or 64 bits.
    /// </returns>
    public static OperationStatus TryRead(ReadOnlySpan<byte> source, out ulong value, out int bytesConsumed)
        => TryReadCore(source, MaxLength64, 0x01, out value, out bytesConsumed);

    /// <summary>Reads a 32-bit varint.</summary>
    /// <param name="source">The bytes, starting with the varint.</param>
    /// <param name="value">The value read, or 0 when the status is not <see cref="OperationStatus.Done"/>.</param>
    /// <param name="bytesConsumed">How many bytes the varint took, or 0 when the status is not <see cref="OperationStatus.Done"/>.</param>
    /// <returns>
    /// <see cref="OperationStatus.Done"/>; <see cref="OperationStatus.NeedMoreData"/> when <paramref name="source"/> ends
    /// inside the varint; <see cref="OperationStatus.InvalidData"/> when it runs past 5 bytes or 32 bits.
    /// </returns>
    public static OperationStatus TryRead(ReadOnlySpan<byte> source, out uint value, out int bytesConsumed)
    {
        var status = TryReadCore(source, MaxLength32, 0x0F, out var wide, out bytesConsumed);
        value = (uint)wide;
        return status;
    }

    // The last allowed byte may only carry the bits that still fit: 1 bit for 64-bit values (9 * 7 = 63),
    // 4 bits for 32-bit values (4 * 7 = 28); anything more is an overflow, not a longer number.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static OperationStatus TryReadCore(ReadOnlySpan<byte> source, int maxLength, byte lastByteMask, out ulong value, out int bytesConsumed)
    {
        // Keys, lengths and small values are one byte: the common case skips the loop.
        if (!source.IsEmpty && source[0] < 0x80)
        {
            value = source[0];
            bytesConsumed = 1;
            return OperationStatus.Done;
        }

        ulong result = 0;
        var limit = Math.Min(source.Length, maxLength);
        for (var i = 0; i < limit; i++)
        {
            var current = source[i];
            if (i == maxLength - 1 && (current & ~lastByteMask) != 0)
            {
                value = 0;
                bytesConsumed = 0;
                return OperationStatus.InvalidData;
            }

            result |= (ulong)(current & 0x7F) << (7 * i);
            if (current < 0x80)
            {
                value = result;
                bytesConsumed = i + 1;
                return OperationStatus.Done;
            }
        }

        // Every byte seen so far said "more follows": either the input stops early, or it is too long.
        value = 0;
        bytesConsumed = 0;
        return source.Length < maxLength ? OperationStatus.NeedMoreData : OperationStatus.InvalidData;
    }
}

using System.Runtime.CompilerServices;

namespace Millrace;

/// <summary>
/// ZigZag encoding maps signed integers to unsigned ones so that values near zero, negative or positive,
/// get small codes: 0 → 0, -1 → 1, 1 → 2, -2 → 3. Pair it with <see cref="Varint"/>.
/// </summary>
public static class ZigZag
{
    /// <summary>Encodes a 32-bit signed value.</summary>
    /// <param name="value">The signed value.</param>
    /// <returns>The zigzag code.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint Encode(int value) => (uint)((value << 1) ^ (value >> 31));

    /// <summary>Encodes a 64-bit signed value.</summary>
    /// <param name="value">The signed value.</param>
    /// <returns>The zigzag code.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Encode(long value) => (ulong)((value << 1) ^ (value >> 63));

    /// <summary>Decodes a 32-bit zigzag code.</summary>
    /// <param name="code">The zigzag code.</param>
    /// <returns>The signed value.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Decode(uint code) => (int)(code >> 1) ^ -(int)(code & 1);

    /// <summary>Decodes a 64-bit zigzag code.</summary>
    /// <param name="code">The zigzag code.</param>
    /// <returns>The signed value.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Decode(ulong code) => (long)(code >> 1) ^ -(long)(code & 1);
}

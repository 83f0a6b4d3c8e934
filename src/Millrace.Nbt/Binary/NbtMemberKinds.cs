using System.Runtime.CompilerServices;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>
/// What the fast loops over a compound's tags (the borrowed document's tape, the pull reader's skip) do with each byte
/// that could be a tag id: a number's size (1-8), <see cref="String"/>, <see cref="List"/>, <see cref="Compound"/>, or 0
/// for everything they leave to the careful path, which says exactly what is wrong (End, arrays, ids that are not tags).
/// </summary>
internal static class NbtMemberKinds
{
    /// <summary>A string's kind.</summary>
    public const byte String = 16;

    /// <summary>A compound's kind.</summary>
    public const byte Compound = 32;

    /// <summary>A list's kind.</summary>
    public const byte List = 64;

    /// <summary>
    /// Reads the header of the member at <paramref name="pos"/> (its id, its name's length and its name) and gets where
    /// the member ends when it is a number or a string: its payload's offset plus the number's size, or past the
    /// string's length prefix and bytes. 0 for any other member, and for a header or string prefix cut short by the end
    /// of the input (then <paramref name="kind"/> is 0 too); the caller checks an end against the input's length.
    /// </summary>
    /// <typeparam name="TOrder">The flavour's byte order.</typeparam>
    /// <param name="bytes">The input's first byte.</param>
    /// <param name="length">The input's length.</param>
    /// <param name="pos">Where the member's id is.</param>
    /// <param name="kind">The member's kind.</param>
    /// <param name="payload">Where its payload starts.</param>
    /// <returns>The offset after it, or 0.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int EndOfValue<TOrder>(ref byte bytes, int length, int pos, out byte kind, out int payload)
        where TOrder : struct, IByteOrder
    {
        if (length - pos < 3)
        {
            kind = 0;
            payload = 0;
            return 0;
        }

        var id = Unsafe.Add(ref bytes, pos);
        payload = pos + 3 + TOrder.ReadUInt16(ref Unsafe.Add(ref bytes, pos + 1));
        if ((uint)(id - 1) < (uint)NbtTagType.Double)
        {
            // A number's size by shifts of the id, where a load from Of sat between the id's load and the next member's
            // position: the walk is one chain of dependent loads, and this link is two cycles instead of a load's five.
            kind = (byte)((NumberSizes >> (id << 2)) & 0xF);
            return payload + kind;
        }

        kind = Of[id];
        return kind == String && (uint)payload + 2 <= (uint)length ? payload + 2 + TOrder.ReadUInt16(ref Unsafe.Add(ref bytes, payload)) : 0;
    }

    // The sizes of Byte (1) to Double (6), a nibble each by tag id.
    private const ulong NumberSizes = 0x0848_4210;

    /// <summary>Gets each byte's kind, by the byte.</summary>
    public static ReadOnlySpan<byte> Of =>
    [
        0, 1, 2, 4, 8, 4, 8, 0, String, List, Compound, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
}

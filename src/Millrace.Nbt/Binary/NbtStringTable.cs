using System.Runtime.CompilerServices;
using System.Text;

namespace Millrace.Nbt.Binary;

/// <summary>
/// The ASCII strings one read decoded, in a small table by a hash of their bytes: names and values repeat (every
/// inventory item has its "Slot", "id" and "Count", and most ids are a handful of "minecraft:…" names), so a repeat costs
/// a comparison instead of a decode and a new string, and what the read builds shares one string for them all. Lives in
/// the reader (a few hundred bytes of its stack), so a read owns nothing to give back.
/// </summary>
/// <remarks>
/// Only strings whose bytes are all below 0x80 are kept: those decode to the same chars in every flavour, so a kept string
/// is returned only for the very bytes it was decoded from, and the comparison is false for any byte above. A slot that two
/// strings share keeps the later one; the earlier is decoded again when it comes back.
/// </remarks>
[InlineArray(Slots)]
internal struct NbtStringTable
{
    private const int Slots = 16;

    private string? _slot;

    /// <summary>Gets the string of <paramref name="bytes"/>: the kept one, or <paramref name="cursor"/>'s decode of them, kept when ASCII.</summary>
    /// <param name="bytes">The string's bytes, in the cursor's flavour.</param>
    /// <param name="offset">Where they start, for a decoding error.</param>
    /// <param name="cursor">The cursor whose flavour decodes them.</param>
    /// <returns>The string.</returns>
    public string Get(ReadOnlySpan<byte> bytes, int offset, in NbtCursor cursor)
    {
        if (bytes.IsEmpty)
        {
            return string.Empty;
        }

        ref var slot = ref this[(bytes.Length ^ (bytes[0] << 1) ^ (bytes[^1] << 3)) & (Slots - 1)];
        if (slot is { } kept && Ascii.Equals(bytes, kept))
        {
            return kept;
        }

        // ASCII bytes are the same chars in every flavour: widened here, and kept, with one check of the bytes.
        if (Ascii.IsValid(bytes))
        {
            return slot = Encoding.Latin1.GetString(bytes);
        }

        return cursor.Decode(bytes, offset);
    }
}

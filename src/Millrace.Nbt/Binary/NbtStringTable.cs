using System.Runtime.CompilerServices;
using System.Text;

namespace Millrace.Nbt.Binary;

/// <summary>
/// The ASCII strings one read decoded, in a small table by a hash of their bytes: values repeat (most ids are a handful of
/// "minecraft:…" names), so a repeat costs a comparison instead of a decode and a new string, and what the read builds
/// shares one string for them all. Short names, which repeat across reads too, are kept in <see cref="NameCache"/>
/// instead. Lives in the reader (a few hundred bytes of its stack), so a read owns nothing to give back.
/// </summary>
/// <remarks>
/// Only strings whose bytes are all below 0x80 are kept: those decode to the same chars in every flavour, so a kept string
/// is returned only for the very bytes it was decoded from, and the comparison is false for any byte above. A slot that two
/// strings share keeps the later one; the earlier is decoded again when it comes back.
/// </remarks>
internal struct NbtStringTable
{
    private const int Slots = 16;

    private SlotBuffer _slots;

    /// <summary>Gets the string of <paramref name="length"/> bytes at <paramref name="offset"/>: the kept one, or <paramref name="cursor"/>'s decode of them, kept when ASCII.</summary>
    /// <param name="input">The whole input the bytes are in, which every kept string's bytes are in too.</param>
    /// <param name="offset">Where they start.</param>
    /// <param name="length">How many there are.</param>
    /// <param name="cursor">The cursor whose flavour decodes them.</param>
    /// <returns>The string.</returns>
    public string Get(ReadOnlySpan<byte> input, int offset, int length, in NbtCursor cursor)
    {
        if (length == 0)
        {
            return string.Empty;
        }

        var bytes = input.Slice(offset, length);

        // A kept string is compared by the bytes it was decoded from, which are still in the input: bytes against bytes,
        // not bytes against the string's chars, which widens every byte first. The length is compared first because
        // strings of other lengths share slots: it keeps the kept bytes' slice inside the input, and a string from
        // being found for the first bytes of a longer one.
        ref var slot = ref _slots[(length ^ (bytes[0] << 1) ^ (bytes[^1] << 3)) & (Slots - 1)];
        if (slot.Text is { } kept && kept.Length == length && bytes.SequenceEqual(input.Slice(slot.Offset, length)))
        {
            return kept;
        }

        // ASCII bytes are the same chars in every flavour: widened here, and kept, with one check of the bytes.
        if (Ascii.IsValid(bytes))
        {
            slot.Offset = offset;
            return slot.Text = Encoding.Latin1.GetString(bytes);
        }

        return cursor.Decode(bytes, offset);
    }

    /// <summary>Reads a string at <paramref name="cursor"/> (its length prefix and its bytes) and gets it as <see cref="Get"/> does.</summary>
    /// <param name="input">The whole input <paramref name="cursor"/> reads.</param>
    /// <param name="cursor">The cursor, on the string's length prefix; moved past the string.</param>
    /// <returns>The string.</returns>
    public string Read(ReadOnlySpan<byte> input, ref NbtCursor cursor)
    {
        var length = cursor.ReadStringBytes().Length;
        return Get(input, cursor.Position - length, length, cursor);
    }

    /// <summary>Gets a tag's name as <see cref="Get"/> does, from <see cref="NameCache"/> when it is short ASCII.</summary>
    /// <param name="input">The whole input the bytes are in.</param>
    /// <param name="offset">Where they start.</param>
    /// <param name="length">How many there are.</param>
    /// <param name="cursor">The cursor whose flavour decodes them.</param>
    /// <returns>The name.</returns>
    public string GetName(ReadOnlySpan<byte> input, int offset, int length, in NbtCursor cursor) =>
        NameCache.Get(input.Slice(offset, length)) is { } name
            ? name
            : Get(input, offset, length, cursor);

    /// <summary>Reads a tag's name at <paramref name="cursor"/> and gets it as <see cref="GetName"/> does.</summary>
    /// <param name="input">The whole input <paramref name="cursor"/> reads.</param>
    /// <param name="cursor">The cursor, on the name's length prefix; moved past the name.</param>
    /// <returns>The name.</returns>
    public string ReadName(ReadOnlySpan<byte> input, ref NbtCursor cursor)
    {
        var length = cursor.ReadStringBytes().Length;
        return GetName(input, cursor.Position - length, length, cursor);
    }

    private struct Slot
    {
        public string? Text;
        public int Offset;
    }

    [InlineArray(Slots)]
    private struct SlotBuffer
    {
        private Slot _first;
    }
}

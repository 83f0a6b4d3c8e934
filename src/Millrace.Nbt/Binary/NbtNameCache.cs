using System.Buffers.Binary;
using System.Diagnostics;
using System.Text;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Short ASCII tag names, shared by every read in the process: the same few hundred names ("id", "Count", "Slot",
/// "Pos"…) come back in every player file and chunk, so a read finds them here instead of decoding them, and the trees a
/// program keeps hold one string per name between them.
/// </summary>
/// <remarks>
/// Names only, as Jackson canonicalizes field names and not values: names are the data's schema, values are its content,
/// which a process-wide table should not keep. Bounded: <see cref="Slots"/> strings of at most <see cref="MaxLength"/>
/// chars (under 100 KB). Safe from any thread without a lock: a slot holds one immutable string, read and replaced whole;
/// two names that share a slot replace each other, which costs a decode and never a wrong name, since a kept string is
/// returned only for bytes equal to its chars.
/// </remarks>
internal static class NbtNameCache
{
    /// <summary>The longest name kept, in bytes.</summary>
    public const int MaxLength = 32;

    private const int Slots = 1024;
    private const int SlotBits = 10;

    private static readonly string?[] Names = new string?[Slots];

    /// <summary>Gets the name these bytes spell: the kept string, or a new one, kept; <see langword="null"/> when they are not all ASCII.</summary>
    /// <param name="bytes">The name's bytes: 1 to <see cref="MaxLength"/> of them.</param>
    /// <returns>The name, or <see langword="null"/>.</returns>
    public static string? Get(ReadOnlySpan<byte> bytes)
    {
        Debug.Assert(bytes.Length is > 0 and <= MaxLength, "The caller passes 1 to MaxLength bytes.");
        ref var slot = ref Names[Slot(bytes)];
        var kept = Volatile.Read(ref slot);
        if (kept is not null && kept.Length == bytes.Length && Ascii.Equals(bytes, kept))
        {
            return kept;
        }

        // ASCII bytes are the same chars in every flavour's encoding.
        if (!Ascii.IsValid(bytes))
        {
            return null;
        }

        var name = Encoding.Latin1.GetString(bytes);
        Volatile.Write(ref slot, name);
        return name;
    }

    // The name's first and last 8 bytes (4, or 3 chosen, when shorter) and its length, mixed by multiplication, whose top
    // bits pick the slot: names that differ only in the middle of a long name share a slot, and take turns in it.
    private static int Slot(ReadOnlySpan<byte> bytes)
    {
        ulong first, last;
        if (bytes.Length >= sizeof(ulong))
        {
            first = BinaryPrimitives.ReadUInt64LittleEndian(bytes);
            last = BinaryPrimitives.ReadUInt64LittleEndian(bytes[^sizeof(ulong)..]);
        }
        else if (bytes.Length >= sizeof(uint))
        {
            first = BinaryPrimitives.ReadUInt32LittleEndian(bytes);
            last = BinaryPrimitives.ReadUInt32LittleEndian(bytes[^sizeof(uint)..]);
        }
        else
        {
            first = bytes[0];
            last = ((ulong)bytes[^1] << 8) | bytes[bytes.Length / 2];
        }

        var hash = ((first + (ulong)bytes.Length) * 0x9E3779B97F4A7C15UL) ^ (last * 0xC2B2AE3D27D4EB4FUL);
        return (int)(hash >> (64 - SlotBits));
    }
}

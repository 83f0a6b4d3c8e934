using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace Millrace;

/// <summary>
/// Short ASCII names, shared by every read in the process: the same few hundred names come back in every document of a
/// kind (an NBT tag's "id", "Count", "Slot"; a compact map's keys, "role", "region"), so a reader finds them here instead of
/// decoding them, and the objects a program keeps hold one string per name between them.
/// </summary>
/// <remarks>
/// Names only, as Jackson canonicalizes field names and not values: names are mostly the data's schema, values are its
/// content, which a process-wide table should not keep. A map's keys can be content too (ids, addresses): a name is
/// kept only when it comes twice in a row to its place in the table, so keys seen once are neither kept nor evict the
/// names that repeat, and what is kept is bounded: 1,024 names of at most <see cref="MaxLength"/> bytes (under 160 KB
/// with their entries and sightings). Safe from any thread without a lock: a slot holds one immutable entry, read and replaced
/// whole; two names that share a slot take turns in it (or, coming in turns, neither is kept), which costs a decode and
/// never a wrong name, since a kept name is returned only for bytes equal to its chars.
/// </remarks>
public static class NameCache
{
    /// <summary>The longest name kept, in bytes.</summary>
    public const int MaxLength = 32;

    // Up to this many bytes, a name's first and last 8 (4, or 3 chosen, when shorter) and its length are all of its
    // bytes: an entry is found by comparing those two words, where comparing the bytes with the kept chars cost a tree
    // read a fifth of its time. Longer names are compared whole.
    private const int WordsLength = 2 * sizeof(ulong);

    private const int Slots = 1024;
    private const int SlotBits = 10;

    private static readonly Entry?[] Entries = new Entry?[Slots];
    private static readonly ulong[] Sightings = new ulong[Slots];

    /// <summary>Gets the name these bytes spell: the kept string, or a new one (kept when the same name came just before it at its place in the table); <see langword="null"/> when they are not all ASCII, or are empty or longer than <see cref="MaxLength"/>.</summary>
    /// <param name="bytes">The name's bytes (ASCII is the same bytes in UTF-8, Modified UTF-8 and Latin-1).</param>
    /// <returns>The name, or <see langword="null"/>.</returns>
    public static string? Get(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length is 0 or > MaxLength)
        {
            return null;
        }

        var (first, last) = Words(bytes);

        // The words and the length, mixed by multiplication, whose top bits pick the slot: names that differ only in the
        // middle of a long name share a slot, and take turns in it.
        var hash = ((first + (ulong)bytes.Length) * 0x9E3779B97F4A7C15UL) ^ (last * 0xC2B2AE3D27D4EB4FUL);
        var index = (int)(hash >> (64 - SlotBits));
        var kept = Volatile.Read(ref Entries[index]);
        if (kept is not null && kept.First == first && kept.Last == last && kept.Name.Length == bytes.Length
            && (bytes.Length <= WordsLength || Ascii.Equals(bytes, kept.Name)))
        {
            return kept.Name;
        }

        return Miss(bytes, hash, index);
    }

    // Out of Get, whose hits then take no stack buffer (and its zeroing and checks) on every call.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static string? Miss(ReadOnlySpan<byte> bytes, ulong hash, int index)
    {
        // A miss works on a copy: bytes another thread changes meanwhile can make a wrong answer for that caller, never an
        // entry whose words and name disagree, which would be every later caller's wrong answer.
        Span<byte> copy = stackalloc byte[MaxLength];
        copy = copy[..bytes.Length];
        bytes.CopyTo(copy);
        if (!Ascii.IsValid(copy))
        {
            return null;
        }

        var name = Encoding.Latin1.GetString(copy);

        // A name is kept on its second sighting in a row at its slot: one seen once (a map's key that is data, such as an
        // id) neither allocates an entry nor evicts a name that keeps coming back. Sightings are hashes, raced without
        // harm: a lost one only delays a name's keeping.
        ref var sighting = ref Sightings[index];
        if (Volatile.Read(ref sighting) != hash)
        {
            Volatile.Write(ref sighting, hash);
            return name;
        }

        var (first, last) = Words(copy);
        Volatile.Write(ref Entries[index], new Entry(first, last, name));
        return name;
    }

    private static (ulong First, ulong Last) Words(ReadOnlySpan<byte> bytes)
    {
        ref var at = ref MemoryMarshal.GetReference(bytes);
        var length = bytes.Length;
        if (length >= sizeof(ulong))
        {
            return (Unsafe.ReadUnaligned<ulong>(ref at), Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref at, length - sizeof(ulong))));
        }

        if (length >= sizeof(uint))
        {
            return (Unsafe.ReadUnaligned<uint>(ref at), Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref at, length - sizeof(uint))));
        }

        return (at, ((ulong)Unsafe.Add(ref at, length - 1) << 8) | Unsafe.Add(ref at, length / 2));
    }

    /// <summary>A kept name and the words it was found by.</summary>
    private sealed class Entry(ulong first, ulong last, string name)
    {
        public readonly ulong First = first;
        public readonly ulong Last = last;
        public readonly string Name = name;
    }
}

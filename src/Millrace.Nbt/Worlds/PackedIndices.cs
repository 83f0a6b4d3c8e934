using System.Numerics;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// The packed index arrays of chunk sections: block state indices (<c>BlockStates</c>, <c>block_states.data</c>) and
/// biome indices (<c>biomes.data</c>), each entry a fixed number of bits, least significant first.
/// </summary>
/// <remarks>
/// When the entry width divides 64 the two layouts are the same bytes; otherwise their lengths differ, so an array
/// of the wrong length for its layout is refused rather than read with the other one.
/// </remarks>
public static class PackedIndices
{
    /// <summary>The widest entry: an index into a palette, which is an <see cref="int"/>.</summary>
    public const int MaxBitsPerEntry = 31;

    /// <summary>How many longs hold <paramref name="count"/> entries of <paramref name="bitsPerEntry"/> bits.</summary>
    /// <param name="count">The number of entries: 4,096 for a section's blocks, 64 for its biomes.</param>
    /// <param name="bitsPerEntry">The width of an entry, from 1 to <see cref="MaxBitsPerEntry"/>.</param>
    /// <param name="layout">How the entries are packed.</param>
    /// <returns>The array's length.</returns>
    /// <exception cref="ArgumentOutOfRangeException">A count below 0 or a width out of range.</exception>
    public static int LongCount(int count, int bitsPerEntry, PackedLayout layout)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfLessThan(bitsPerEntry, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(bitsPerEntry, MaxBitsPerEntry);
        return layout switch
        {
            PackedLayout.Spanning => (int)(((long)count * bitsPerEntry + 63) / 64),
            PackedLayout.Padded => (count + (64 / bitsPerEntry) - 1) / (64 / bitsPerEntry),
            _ => throw new ArgumentOutOfRangeException(nameof(layout), layout, "Not a packed layout."),
        };
    }

    /// <summary>The width the game gives an index into a palette of <paramref name="paletteSize"/> entries: its
    /// binary logarithm rounded up, at least <paramref name="minimum"/>.</summary>
    /// <param name="paletteSize">The palette's entries, at least 1.</param>
    /// <param name="minimum">The least width used.</param>
    /// <returns>The width in bits.</returns>
    public static int BitsFor(int paletteSize, int minimum)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(paletteSize, 1);
        return Math.Max(minimum, paletteSize == 1 ? 0 : 32 - BitOperations.LeadingZeroCount((uint)(paletteSize - 1)));
    }

    /// <summary>Reads every entry.</summary>
    /// <param name="packed">The packed array, exactly <see cref="LongCount"/> long.</param>
    /// <param name="bitsPerEntry">The width of an entry.</param>
    /// <param name="layout">How the entries are packed.</param>
    /// <param name="entries">Receives the entries; its length is the count.</param>
    /// <exception cref="ArgumentException"><paramref name="packed"/> is not the length that count, width and layout make.</exception>
    public static void Unpack(ReadOnlySpan<long> packed, int bitsPerEntry, PackedLayout layout, Span<int> entries)
    {
        CheckLength(packed.Length, entries.Length, bitsPerEntry, layout, nameof(packed));
        var mask = (1UL << bitsPerEntry) - 1;
        if (layout == PackedLayout.Padded || 64 % bitsPerEntry == 0)
        {
            var perLong = 64 / bitsPerEntry;
            var i = 0;
            foreach (var word in packed)
            {
                var bits = (ulong)word;
                for (var k = 0; k < perLong && i < entries.Length; k++, i++)
                {
                    entries[i] = (int)(bits & mask);
                    bits >>= bitsPerEntry;
                }
            }

            return;
        }

        for (var i = 0; i < entries.Length; i++)
        {
            var bit = (long)i * bitsPerEntry;
            var index = (int)(bit >> 6);
            var shift = (int)(bit & 63);
            var value = (ulong)packed[index] >> shift;
            if (shift + bitsPerEntry > 64)
            {
                value |= (ulong)packed[index + 1] << (64 - shift);
            }

            entries[i] = (int)(value & mask);
        }
    }

    /// <summary>Packs every entry, the bits no entry uses left zero, as the game writes them.</summary>
    /// <param name="entries">The entries, each below 2 to the power <paramref name="bitsPerEntry"/>.</param>
    /// <param name="bitsPerEntry">The width of an entry.</param>
    /// <param name="layout">How the entries are packed.</param>
    /// <param name="packed">Receives the packed array, exactly <see cref="LongCount"/> long.</param>
    /// <exception cref="ArgumentException"><paramref name="packed"/> is not the length that count, width and layout make.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An entry is negative or too wide.</exception>
    public static void Pack(ReadOnlySpan<int> entries, int bitsPerEntry, PackedLayout layout, Span<long> packed)
    {
        CheckLength(packed.Length, entries.Length, bitsPerEntry, layout, nameof(packed));
        var mask = (1UL << bitsPerEntry) - 1;
        packed.Clear();
        var perLong = layout == PackedLayout.Padded ? 64 / bitsPerEntry : 0;
        for (var i = 0; i < entries.Length; i++)
        {
            var value = (ulong)(uint)entries[i];
            if (entries[i] < 0 || value > mask)
            {
                throw new ArgumentOutOfRangeException(nameof(entries), entries[i], $"Entry {i} does not fit in {bitsPerEntry} bits.");
            }

            long bit = perLong != 0 ? ((long)(i / perLong) * 64) + ((i % perLong) * bitsPerEntry) : (long)i * bitsPerEntry;
            var index = (int)(bit >> 6);
            var shift = (int)(bit & 63);
            packed[index] |= (long)(value << shift);
            if (shift + bitsPerEntry > 64)
            {
                packed[index + 1] |= (long)(value >> (64 - shift));
            }
        }
    }

    /// <summary>Adds to <paramref name="histogram"/>[<c>e</c>] how many of the first <paramref name="count"/> entries
    /// are <c>e</c>, for an array whose length was checked; <paramref name="histogram"/> has room for every value the
    /// width allows.</summary>
    /// <remarks>
    /// A long whose entries are all one value (most of a section of stone or air) is counted in one step. The rest are
    /// counted into two tables by turns: a run of one value then waits on two increments at a time, not one.
    /// </remarks>
    internal static void Count(ReadOnlySpan<long> packed, int bitsPerEntry, PackedLayout layout, int count, Span<int> histogram)
    {
        var mask = (1UL << bitsPerEntry) - 1;
        if (layout == PackedLayout.Spanning && 64 % bitsPerEntry != 0)
        {
            for (var i = 0; i < count; i++)
            {
                histogram[Get(packed, bitsPerEntry, layout, i)]++;
            }

            return;
        }

        var perLong = 64 / bitsPerEntry;
        var whole = count / perLong;
        var repeat = 0UL;
        for (var k = 0; k < perLong; k++)
        {
            repeat |= 1UL << (k * bitsPerEntry);
        }

        var values = 1 << bitsPerEntry;
        Span<int> other = values <= 1024 ? stackalloc int[values] : new int[values];
        other.Clear();
        for (var w = 0; w < whole; w++)
        {
            var bits = (ulong)packed[w];
            var first = bits & mask;
            if (bits == first * repeat)
            {
                histogram[(int)first] += perLong;
                continue;
            }

            for (var k = 0; k < perLong; k += 2)
            {
                histogram[(int)(bits & mask)]++;
                bits >>= bitsPerEntry;
                if (k + 1 < perLong)
                {
                    other[(int)(bits & mask)]++;
                    bits >>= bitsPerEntry;
                }
            }
        }

        for (var i = whole * perLong; i < count; i++)
        {
            histogram[Get(packed, bitsPerEntry, layout, i)]++;
        }

        for (var v = 0; v < values; v++)
        {
            histogram[v] += other[v];
        }
    }

    /// <summary>Reads one entry of an array whose length was checked.</summary>
    internal static int Get(ReadOnlySpan<long> packed, int bitsPerEntry, PackedLayout layout, int index)
    {
        var mask = (1UL << bitsPerEntry) - 1;
        var perLong = layout == PackedLayout.Padded ? 64 / bitsPerEntry : 0;
        long bit = perLong != 0 ? ((long)(index / perLong) * 64) + ((index % perLong) * bitsPerEntry) : (long)index * bitsPerEntry;
        var word = (int)(bit >> 6);
        var shift = (int)(bit & 63);
        var value = (ulong)packed[word] >> shift;
        if (shift + bitsPerEntry > 64)
        {
            value |= (ulong)packed[word + 1] << (64 - shift);
        }

        return (int)(value & mask);
    }

    private static void CheckLength(int length, int count, int bitsPerEntry, PackedLayout layout, string paramName)
    {
        var expected = LongCount(count, bitsPerEntry, layout);
        if (length != expected)
        {
            throw new ArgumentException($"{count} entries of {bitsPerEntry} bits take {expected} longs in the {layout.ToString().ToLowerInvariant()} layout, not {length}.", paramName);
        }
    }
}

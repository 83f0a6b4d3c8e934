using System.Collections;
using Millrace.Nbt.Worlds;

namespace Millrace.Nbt.Tests.Worlds;

public class PackedIndicesTests
{
    public static TheoryData<int, PackedLayout> Widths() => WidthsUpTo(PackedIndices.MaxBitsPerEntry);

    // A palette's index is at most 13 bits wide (4,097 entries): Count is for palettes.
    public static TheoryData<int, PackedLayout> PaletteWidths() => WidthsUpTo(13);

    [Theory]
    [MemberData(nameof(Widths))]
    public void Unpack_ReadsWhatAnIndependentBitReaderReads_AndPackGivesTheSameLongs(int bits, PackedLayout layout)
    {
        foreach (var count in new[] { 4096, 64, 1, 63 })
        {
            var random = new Random((bits * 1_000) + count + (int)layout);
            var entries = Enumerable.Range(0, count).Select(_ => (int)(random.NextInt64(1L << bits))).ToArray();
            var packed = ReferencePack(entries, bits, layout);
            Assert.Equal(packed.Length, PackedIndices.LongCount(count, bits, layout));

            var unpacked = new int[count];
            PackedIndices.Unpack(packed, bits, layout, unpacked);
            Assert.Equal(entries, unpacked);
            Assert.Equal(entries, ReferenceUnpack(packed, bits, layout, count));

            var repacked = new long[packed.Length];
            PackedIndices.Pack(entries, bits, layout, repacked);
            Assert.Equal(packed, repacked);
        }
    }

    [Theory]
    [MemberData(nameof(PaletteWidths))]
    public void Count_IsTheHistogramOfWhatAnIndependentBitReaderReads(int bits, PackedLayout layout)
    {
        foreach (var count in new[] { 4096, 64, 1, 63 })
        {
            // Runs of one value, long enough to fill whole longs (counted a long at a time), between random entries.
            var random = new Random((bits * 1_000) + count + (int)layout);
            var entries = new int[count];
            for (var i = 0; i < count;)
            {
                var run = random.Next(2) == 0 ? 1 : random.Next(1, 200);
                var value = random.Next(1 << bits);
                for (var k = 0; k < run && i < count; k++)
                {
                    entries[i++] = value;
                }
            }

            var packed = ReferencePack(entries, bits, layout);
            var histogram = new int[1 << bits];
            PackedIndices.Count(packed, bits, layout, count, histogram);
            var expected = new int[1 << bits];
            foreach (var entry in ReferenceUnpack(packed, bits, layout, count))
            {
                expected[entry]++;
            }

            Assert.Equal(expected, histogram);
        }
    }

    // The bits a padded long leaves over hold no entry: set, they are not counted, and a long of one value with them set
    // is still counted entry by entry, right.
    [Fact]
    public void Count_LeavesAPaddedLongsSpareBitsOut()
    {
        var entries = Enumerable.Repeat(3, 24).ToArray();
        var packed = ReferencePack(entries, 5, PackedLayout.Padded);
        packed[0] |= 0xFL << 60;
        var histogram = new int[32];
        PackedIndices.Count(packed, 5, PackedLayout.Padded, entries.Length, histogram);
        Assert.Equal(24, histogram[3]);
        Assert.Equal(24, histogram.Sum());
    }

    [Fact]
    public void TheLayouts_AreTheSameBytes_OnlyWhereTheWidthDivides64()
    {
        for (var bits = 1; bits <= PackedIndices.MaxBitsPerEntry; bits++)
        {
            var same = PackedIndices.LongCount(4096, bits, PackedLayout.Spanning) == PackedIndices.LongCount(4096, bits, PackedLayout.Padded);
            Assert.Equal(64 % bits == 0, same);
        }
    }

    [Fact]
    public void GoldenLongs_FiveBitsEach()
    {
        // Entries 1 to 13 of 5 bits: the padded layout starts a long at entry 13 and leaves bits 60-63 zero; the
        // spanning one puts entry 13's low four bits there and its fifth (zero) in the next long.
        var entries = Enumerable.Range(1, 13).ToArray();
        var padded = new long[2];
        PackedIndices.Pack(entries, 5, PackedLayout.Padded, padded);
        Assert.Equal([0x062D_4941_CC52_0C41L, 13L], padded);

        var spanning = new long[2];
        PackedIndices.Pack(entries, 5, PackedLayout.Spanning, spanning);
        Assert.Equal([unchecked((long)0xD62D_4941_CC52_0C41UL), 0L], spanning);
    }

    [Fact]
    public void AWrongLength_OrAnEntryTooWide_IsRefused()
    {
        var entries = new int[4096];
        Assert.Throws<ArgumentException>(() => PackedIndices.Unpack(new long[341], 5, PackedLayout.Padded, entries));
        Assert.Throws<ArgumentException>(() => PackedIndices.Unpack(new long[342], 5, PackedLayout.Spanning, entries));
        entries[7] = 32;
        Assert.Throws<ArgumentOutOfRangeException>(() => PackedIndices.Pack(entries, 5, PackedLayout.Padded, new long[342]));
        Assert.Throws<ArgumentOutOfRangeException>(() => PackedIndices.LongCount(4096, 33, PackedLayout.Padded));
    }

    [Theory]
    [InlineData(1, 4, 4)]
    [InlineData(16, 4, 4)]
    [InlineData(17, 4, 5)]
    [InlineData(256, 4, 8)]
    [InlineData(257, 4, 9)]
    [InlineData(1, 0, 0)]
    [InlineData(2, 0, 1)]
    [InlineData(3, 0, 2)]
    public void BitsFor_IsTheRoundedUpLogarithm(int paletteSize, int minimum, int bits) =>
        Assert.Equal(bits, PackedIndices.BitsFor(paletteSize, minimum));

    // Bit by bit through a BitArray: no shifts of longs, no layout arithmetic shared with the library.
    private static TheoryData<int, PackedLayout> WidthsUpTo(int maxBits)
    {
        var data = new TheoryData<int, PackedLayout>();
        foreach (var layout in new[] { PackedLayout.Spanning, PackedLayout.Padded })
        {
            for (var bits = 1; bits <= maxBits; bits++)
            {
                data.Add(bits, layout);
            }
        }

        return data;
    }

    internal static long[] ReferencePack(int[] entries, int bits, PackedLayout layout)
    {
        var positions = Positions(entries.Length, bits, layout, out var longs);
        var all = new BitArray(longs * 64);
        for (var i = 0; i < entries.Length; i++)
        {
            for (var b = 0; b < bits; b++)
            {
                all[positions[i] + b] = ((entries[i] >> b) & 1) != 0;
            }
        }

        var result = new long[longs];
        for (var l = 0; l < longs; l++)
        {
            for (var b = 0; b < 64; b++)
            {
                if (all[(l * 64) + b])
                {
                    result[l] |= 1L << b;
                }
            }
        }

        return result;
    }

    internal static int[] ReferenceUnpack(long[] packed, int bits, PackedLayout layout, int count)
    {
        var positions = Positions(count, bits, layout, out _);
        var entries = new int[count];
        for (var i = 0; i < count; i++)
        {
            for (var b = 0; b < bits; b++)
            {
                var bit = positions[i] + b;
                if (((packed[bit / 64] >> (bit % 64)) & 1) != 0)
                {
                    entries[i] |= 1 << b;
                }
            }
        }

        return entries;
    }

    private static int[] Positions(int count, int bits, PackedLayout layout, out int longs)
    {
        var positions = new int[count];
        var position = 0;
        for (var i = 0; i < count; i++)
        {
            if (layout == PackedLayout.Padded && (position % 64) + bits > 64)
            {
                position += 64 - (position % 64);
            }

            positions[i] = position;
            position += bits;
        }

        longs = (position + 63) / 64;
        return positions;
    }
}

using System.Buffers.Binary;

/// <summary>
/// A region file read by the tests' own reader, not the library's: the 4 KiB location table, each chunk's length,
/// compression byte and payload, checked as the game lays a saved region out (every chunk inside the file, no sector
/// claimed twice, the file a whole number of sectors; for a file Millrace saved, no gap between chunks).
/// </summary>
internal static class IndependentRegion
{
    /// <summary>Each chunk's compression byte and payload as stored, by its position in the region.</summary>
    public static Dictionary<(int X, int Z), byte[]> Read(byte[] file, bool withoutGaps = false)
    {
        Assert.True(file.Length % 4096 == 0 && file.Length >= 8192, $"A region of {file.Length} bytes is not whole sectors with its header.");
        var chunks = new Dictionary<(int X, int Z), byte[]>();
        var sectorsUsed = new bool[file.Length / 4096];
        for (var i = 0; i < 1024; i++)
        {
            var location = BinaryPrimitives.ReadUInt32BigEndian(file.AsSpan(i * 4));
            if (location == 0)
            {
                continue;
            }

            var (sector, count) = ((int)(location >> 8), (int)(location & 0xFF));
            Assert.InRange(sector, 2, sectorsUsed.Length - count);
            for (var s = sector; s < sector + count; s++)
            {
                Assert.False(sectorsUsed[s], $"Sector {s} is claimed twice.");
                sectorsUsed[s] = true;
            }

            var length = BinaryPrimitives.ReadInt32BigEndian(file.AsSpan(sector * 4096));
            Assert.InRange(length, 1, (count * 4096) - 4);
            chunks[(i % 32, i / 32)] = file.AsSpan((sector * 4096) + 4, length).ToArray();
        }

        if (withoutGaps)
        {
            Assert.All(sectorsUsed.Skip(2), used => Assert.True(used, "A saved region has no gap between its chunks."));
        }

        return chunks;
    }
}

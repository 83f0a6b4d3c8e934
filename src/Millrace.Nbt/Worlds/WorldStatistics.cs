using System.Globalization;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// Counts over chunks: how many chunks and sections with blocks, how many blocks of each name and how many biome cells
/// of each biome. Blocks saved before 1.13 count as <c>legacy:ID</c>. Counts from several threads are made apart and
/// merged (<see cref="Add(WorldStatistics)"/>); one instance is not for two threads at once.
/// </summary>
public sealed class WorldStatistics
{
    private readonly Dictionary<string, long> _blocks = new(StringComparer.Ordinal);
    private readonly Dictionary<string, long> _biomes = new(StringComparer.Ordinal);
    private readonly int[] _indices = new int[SectionBlockStates.BlockCount];

    // Every id's name, legacy:0 to legacy:4095, made once: a legacy section is counted as a palette of all of them.
    private static readonly string[] LegacyNames = [.. Enumerable.Range(0, SectionBlockIds.MaxId + 1).Select(id => "legacy:" + id.ToString(CultureInfo.InvariantCulture))];
    private long[] _perEntry = new long[16];

    /// <summary>Gets the number of chunks counted.</summary>
    public long Chunks { get; private set; }

    /// <summary>Gets the number of sections with blocks counted.</summary>
    public long Sections { get; private set; }

    /// <summary>Gets the number of blocks of each name (properties aside).</summary>
    public IReadOnlyDictionary<string, long> Blocks => _blocks;

    /// <summary>Gets the number of biome entries of each biome: 4 × 4 × 4 cells from 1.15 (per section from 1.18), and
    /// columns before 1.15; biomes saved before 1.18 have numeric ids only and count as <c>legacy:ID</c>.</summary>
    public IReadOnlyDictionary<string, long> Biomes => _biomes;

    /// <summary>Counts a chunk's sections, all or none: a chunk with a section the game would not write is refused
    /// before anything of it is counted.</summary>
    /// <param name="chunk">The chunk.</param>
    /// <exception cref="MillraceException">A section is not one the game writes (<see cref="NbtErrorCodes.World"/>).</exception>
    public void Add(Chunk chunk)
    {
        ArgumentNullException.ThrowIfNull(chunk);
        foreach (var section in chunk.Sections)
        {
            // Each view read (and checked) once, here; the loop below counts what was read.
            _ = (section.BlockStates, section.BlockIds, section.Biomes);
        }

        var legacyBiomes = chunk.LegacyBiomes;
        Chunks++;
        if (legacyBiomes is not null)
        {
            var ids = new int[legacyBiomes.Count];
            legacyBiomes.CopyIdsTo(ids);
            foreach (var (id, count) in ids.CountBy(id => id))
            {
                Increment(_biomes, id is >= 0 and < 4096 ? LegacyNames[id] : "legacy:" + id.ToString(CultureInfo.InvariantCulture), count);
            }
        }

        foreach (var section in chunk.Sections)
        {
            if (section.BlockStates is { } states)
            {
                Sections++;
                CountPalette(states.CopyIndicesTo, SectionBlockStates.BlockCount, states.Palette, static state => state.Name, _blocks);
            }
            else if (section.BlockIds is { } ids)
            {
                Sections++;
                CountPalette(ids.CopyIdsTo, SectionBlockIds.BlockCount, LegacyNames, static name => name, _blocks);
            }

            if (section.Biomes is { } biomes)
            {
                CountPalette(biomes.CopyIndicesTo, SectionBiomes.CellCount, biomes.Palette, static biome => biome, _biomes);
            }
        }
    }

    /// <summary>Adds another instance's counts to this one's.</summary>
    /// <param name="other">The counts to add.</param>
    public void Add(WorldStatistics other)
    {
        ArgumentNullException.ThrowIfNull(other);
        Chunks += other.Chunks;
        Sections += other.Sections;
        foreach (var (name, count) in other._blocks)
        {
            Increment(_blocks, name, count);
        }

        foreach (var (name, count) in other._biomes)
        {
            Increment(_biomes, name, count);
        }
    }

    private static void Increment(Dictionary<string, long> counts, string name, long count) =>
        counts[name] = counts.GetValueOrDefault(name) + count;

    // Counted by palette entry first, then by name: a name may head several entries (a block's states).
    private void CountPalette<T>(CopyIndices copy, int count, IReadOnlyList<T> palette, Func<T, string> nameOf, Dictionary<string, long> counts)
    {
        if (palette.Count == 1)
        {
            // A single-value section (1.18+) has no indices to unpack.
            Increment(counts, nameOf(palette[0]), count);
            return;
        }

        if (_perEntry.Length < palette.Count)
        {
            _perEntry = new long[Math.Max(palette.Count, _perEntry.Length * 2)];
        }

        var perEntry = _perEntry.AsSpan(0, palette.Count);
        perEntry.Clear();
        var indices = _indices.AsSpan(0, count);
        copy(indices);
        foreach (var index in indices)
        {
            perEntry[index]++;
        }

        for (var i = 0; i < perEntry.Length; i++)
        {
            if (perEntry[i] != 0)
            {
                Increment(counts, nameOf(palette[i]), perEntry[i]);
            }
        }
    }

    private delegate void CopyIndices(Span<int> destination);
}

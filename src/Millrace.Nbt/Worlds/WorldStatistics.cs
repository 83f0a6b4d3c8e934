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
    private long[] _perEntry = new long[16];

    /// <summary>Gets the number of chunks counted.</summary>
    public long Chunks { get; private set; }

    /// <summary>Gets the number of sections with blocks counted.</summary>
    public long Sections { get; private set; }

    /// <summary>Gets the number of blocks of each name (properties aside).</summary>
    public IReadOnlyDictionary<string, long> Blocks => _blocks;

    /// <summary>Gets the number of biome cells (4 × 4 × 4 blocks) of each biome, from 1.18+ sections.</summary>
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

        Chunks++;
        foreach (var section in chunk.Sections)
        {
            if (section.BlockStates is { } states)
            {
                Sections++;
                CountPalette(states.Palette.Count, states.CopyIndicesTo, i => states.Palette[i].Name, _blocks);
            }
            else if (section.BlockIds is { } ids)
            {
                Sections++;
                ids.CopyIdsTo(_indices);
                foreach (var group in _indices.CountBy(id => id))
                {
                    Increment(_blocks, "legacy:" + group.Key.ToString(CultureInfo.InvariantCulture), group.Value);
                }
            }

            if (section.Biomes is { } biomes)
            {
                CountPalette(biomes.Palette.Count, biomes.CopyIndicesTo, i => biomes.Palette[i], _biomes, SectionBiomes.CellCount);
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
    private void CountPalette(int paletteSize, CopyIndices copy, Func<int, string> nameOf, Dictionary<string, long> counts, int count = SectionBlockStates.BlockCount)
    {
        if (_perEntry.Length < paletteSize)
        {
            _perEntry = new long[Math.Max(paletteSize, _perEntry.Length * 2)];
        }

        var perEntry = _perEntry.AsSpan(0, paletteSize);
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
                Increment(counts, nameOf(i), perEntry[i]);
            }
        }
    }

    private delegate void CopyIndices(Span<int> destination);
}

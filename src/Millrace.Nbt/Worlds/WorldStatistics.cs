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

    // Every id's name, legacy:0 to legacy:4095, made once: a legacy section is counted as a palette of all of them.
    private static readonly string[] LegacyNames = [.. Enumerable.Range(0, SectionBlockIds.MaxId + 1).Select(id => "legacy:" + id.ToString(CultureInfo.InvariantCulture))];
    private int[] _perEntry = new int[16];

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
            var perId = Scratch(LegacyNames.Length);
            perId.Clear();
            for (var i = 0; i < legacyBiomes.Count; i++)
            {
                var id = legacyBiomes[i];
                if (id is >= 0 and <= SectionBlockIds.MaxId)
                {
                    perId[id]++;
                }
                else
                {
                    Increment(_biomes, "legacy:" + id.ToString(CultureInfo.InvariantCulture), 1);
                }
            }

            CountPalette(perId, LegacyNames, static name => name, _biomes);
        }

        foreach (var section in chunk.Sections)
        {
            if (section.BlockStates is { } states)
            {
                Sections++;
                var counts = Scratch(states.Palette.Count);
                states.CountEntries(counts);
                CountPalette(counts, states.Palette, static state => state.Name, _blocks);
            }
            else if (section.BlockIds is { } ids)
            {
                Sections++;
                var counts = Scratch(SectionBlockIds.MaxId + 1);
                ids.CountIds(counts);
                CountPalette(counts, LegacyNames, static name => name, _blocks);
            }

            if (section.Biomes is { } biomes)
            {
                var counts = Scratch(biomes.Palette.Count);
                biomes.CountEntries(counts);
                CountPalette(counts, biomes.Palette, static biome => biome, _biomes);
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

    private Span<int> Scratch(int length)
    {
        if (_perEntry.Length < length)
        {
            _perEntry = new int[Math.Max(length, _perEntry.Length * 2)];
        }

        return _perEntry.AsSpan(0, length);
    }

    // The views count by palette entry (into the scratch); by name here: a name may head several entries (a block's states).
    private static void CountPalette<T>(Span<int> perEntry, IReadOnlyList<T> palette, Func<T, string> nameOf, Dictionary<string, long> counts)
    {
        // The entries none use are skipped a vector at a time: a legacy section's "palette" is every id.
        var from = 0;
        while (perEntry[from..].IndexOfAnyExcept(0) is var next and >= 0)
        {
            var i = from + next;
            Increment(counts, nameOf(palette[i]), perEntry[i]);
            from = i + 1;
        }
    }
}

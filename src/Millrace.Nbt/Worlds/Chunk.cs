using System.Globalization;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// A chunk as its users see it, a typed view over the chunk's NBT, which stays the source of truth: reading the view
/// changes no tag, so a chunk read and written back without a change gives the same bytes, and what the view does not
/// model is still in <see cref="Root"/>. Both shapes the game has written are read: before 1.18 everything sits in a
/// <c>Level</c> compound (<c>Sections</c>, <c>TileEntities</c>); from 1.18 at the root (<c>sections</c>,
/// <c>block_entities</c>). A chunk and its sections are not for two threads at once (a scan reads each chunk on one).
/// </summary>
public sealed class Chunk
{
    /// <summary>The first DataVersion whose chunks have no <c>Level</c> compound: where the game's upgrade that moves
    /// its tags to the root is registered (ChunkRenamesFix, in the development of the 1.18 snapshot 21w43a).</summary>
    public const int FirstRootDataVersion = 2842;

    private readonly NbtCompound _level;
    private readonly ChunkSection[] _sections;

    private Chunk(NbtCompound root, NbtCompound level, int x, int z, int? dataVersion, ChunkSection[] sections)
    {
        Root = root;
        _level = level;
        X = x;
        Z = z;
        DataVersion = dataVersion;
        _sections = sections;
    }

    /// <summary>Gets the chunk's root compound, as the region file holds it.</summary>
    public NbtCompound Root { get; }

    /// <summary>Gets the chunk's x, in chunks: <c>xPos</c>, or the place it was read from (<see cref="Read(NbtCompound, int, int)"/>).</summary>
    public int X { get; }

    /// <summary>Gets the chunk's z, in chunks: <c>zPos</c>, or the place it was read from.</summary>
    public int Z { get; }

    /// <summary>Gets the version of the game's data the chunk was saved in; <see langword="null"/> before 1.9, which wrote none.</summary>
    public int? DataVersion { get; }

    /// <summary>Gets how far the chunk was generated (<c>Status</c>: <c>full</c>, <c>minecraft:full</c>, <c>features</c>…), as
    /// written; <see langword="null"/> before 1.13, which wrote none.</summary>
    public string? Status => _level.TryGet<NbtString>("Status", out var status) ? status.Value : null;

    /// <summary>Gets how many ticks players have spent in the chunk (<c>InhabitedTime</c>); 0 when absent.</summary>
    public long InhabitedTime => _level.TryGet<NbtLong>("InhabitedTime", out var time) ? time.Value : 0;

    /// <summary>Gets the game tick the chunk was last saved at (<c>LastUpdate</c>); 0 when absent.</summary>
    public long LastUpdate => _level.TryGet<NbtLong>("LastUpdate", out var tick) ? tick.Value : 0;

    /// <summary>Gets the sections, ordered by <see cref="ChunkSection.Y"/>.</summary>
    public IReadOnlyList<ChunkSection> Sections => _sections;

    /// <summary>Gets the block entities (chests, signs, spawners…): <c>block_entities</c> or <c>TileEntities</c>, empty when absent.</summary>
    public IReadOnlyList<NbtCompound> BlockEntities =>
        (_level.TryGet<NbtList>(ReferenceEquals(_level, Root) ? "block_entities" : "TileEntities", out var list) ? list : []).OfType<NbtCompound>().ToList();

    /// <summary>Gets the biomes of a chunk saved before 1.18 (<c>Level.Biomes</c>, numeric ids), or <see langword="null"/>
    /// when it has none; from 1.18 each section has its own (<see cref="ChunkSection.Biomes"/>).</summary>
    /// <exception cref="MillraceException">The array is not one the game writes (<see cref="NbtErrorCodes.World"/>).</exception>
    public ChunkBiomeIds? LegacyBiomes => ReferenceEquals(_level, Root) ? null : ChunkBiomeIds.Read(_level);

    /// <summary>Gets the heightmaps by name (<c>Heightmaps</c>, 1.13+), <see langword="null"/> when the chunk has none.</summary>
    public NbtCompound? Heightmaps => _level.TryGet<NbtCompound>("Heightmaps", out var heightmaps) ? heightmaps : null;

    /// <summary>Reads a chunk's view.</summary>
    /// <param name="root">The chunk's root compound.</param>
    /// <returns>The view.</returns>
    /// <exception cref="MillraceException">The chunk is not one the game writes (<see cref="NbtErrorCodes.World"/>): no
    /// position, sections that are not compounds with a <c>Y</c>, or two sections at one <c>Y</c>.</exception>
    public static Chunk Read(NbtCompound root) => Read(root, null);

    /// <summary>Reads the view of a chunk found at a place (a region file's slot), which gives its position: as the game
    /// does, a chunk whose <c>xPos</c> and <c>zPos</c> name another place is read as the chunk of the place it was found
    /// at (the game relocates it there and logs the mismatch). Its tags are left as they are.</summary>
    /// <param name="root">The chunk's root compound.</param>
    /// <param name="x">The x of the place, in chunks: the region's x × 32 plus the slot's.</param>
    /// <param name="z">The z of the place, in chunks.</param>
    /// <returns>The view, whose <see cref="X"/> and <see cref="Z"/> are the place's.</returns>
    /// <exception cref="MillraceException">The chunk is not one the game writes (<see cref="NbtErrorCodes.World"/>), as
    /// for <see cref="Read(NbtCompound)"/>.</exception>
    public static Chunk Read(NbtCompound root, int x, int z) => Read(root, (x, z));

    private static Chunk Read(NbtCompound root, (int X, int Z)? place)
    {
        ArgumentNullException.ThrowIfNull(root);
        int? dataVersion = root.TryGet<NbtInt>("DataVersion", out var version) ? version.Value : null;
        var level = root;
        var prefix = string.Empty;
        if (root.TryGet<NbtCompound>("Level", out var nested))
        {
            level = nested;
            prefix = "Level";
        }
        else if (dataVersion is null or < FirstRootDataVersion)
        {
            throw WorldErrors.Invalid("A chunk saved before 1.18 keeps its data in a compound 'Level'.", "Level");
        }

        // xPos and zPos are required either way (the game writes them); a place given overrides them.
        var stored = (X: Position(level, "xPos", prefix), Z: Position(level, "zPos", prefix));
        var (x, z) = place ?? stored;
        var listName = ReferenceEquals(level, root) ? "sections" : "Sections";
        var listPath = ErrorPath.Member(prefix, listName);
        var sections = new List<ChunkSection>();
        if (level.TryGet<NbtTag>(listName, out var tag))
        {
            if (tag is not NbtList list || (list.Count > 0 && list.ElementType != NbtTagType.Compound))
            {
                throw WorldErrors.Invalid($"'{listName}' must be a list of compounds.", listPath);
            }

            for (var i = 0; i < list.Count; i++)
            {
                if (list[i] is not NbtCompound section)
                {
                    throw WorldErrors.Invalid($"A section is a {list[i].Type}, not a compound.", ErrorPath.Element(listPath, i));
                }

                if (!section.TryGet<NbtByte>("Y", out var y))
                {
                    throw WorldErrors.Invalid("A section needs a byte 'Y'.", ErrorPath.Member(ErrorPath.Element(listPath, i), "Y"));
                }

                // The section's path is made only for an error: a scan reads tens of thousands of sections.
                sections.Add(new ChunkSection(section, y.Value, dataVersion ?? 0, listPath, i));
            }
        }

        sections.Sort(static (a, b) => a.Y.CompareTo(b.Y));
        for (var i = 1; i < sections.Count; i++)
        {
            if (sections[i].Y == sections[i - 1].Y)
            {
                throw WorldErrors.Invalid(string.Create(CultureInfo.InvariantCulture, $"Two sections have Y {sections[i].Y}."), listPath);
            }
        }

        return new Chunk(root, level, x, z, dataVersion, [.. sections]);
    }

    /// <summary>Finds the section at a section Y (a block's y divided by 16, rounded down).</summary>
    /// <param name="y">The section's Y.</param>
    /// <returns>The section, or <see langword="null"/> when the chunk has none there.</returns>
    public ChunkSection? SectionAt(int y)
    {
        int low = 0, high = _sections.Length - 1;
        while (low <= high)
        {
            var middle = (low + high) >>> 1;
            var compared = _sections[middle].Y.CompareTo(y);
            if (compared == 0)
            {
                return _sections[middle];
            }

            (low, high) = compared < 0 ? (middle + 1, high) : (low, middle - 1);
        }

        return null;
    }

    /// <summary>Gets the block at world coordinates, which must lie in this chunk's columns.</summary>
    /// <param name="x">The block's world x.</param>
    /// <param name="y">The block's world y.</param>
    /// <param name="z">The block's world z.</param>
    /// <returns>The state (<c>legacy:ID[data=D]</c> before 1.13), or <see langword="null"/> where the chunk has no
    /// section or the section no blocks.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The block is in another chunk.</exception>
    public BlockState? GetBlock(int x, int y, int z)
    {
        var (section, local) = Locate(x, y, z);
        return section switch
        {
            null => null,
            { BlockStates: { } states } => states[local.X, local.Y, local.Z],
            { BlockIds: { } ids } => ids[local.X, local.Y, local.Z],
            _ => null,
        };
    }

    /// <summary>Sets the block at world coordinates in its section (see <see cref="SectionBlockStates.Set"/>); before
    /// 1.13, the state must be <c>legacy:ID</c> with an optional <c>data</c> property.</summary>
    /// <remarks>Only the block's state changes: heightmaps, stored light and block entities are left as they are (a chest
    /// placed this way has no contents tag, and a block entity where a block is replaced stays until the game drops it).</remarks>
    /// <param name="x">The block's world x.</param>
    /// <param name="y">The block's world y.</param>
    /// <param name="z">The block's world z.</param>
    /// <param name="state">The state.</param>
    /// <exception cref="ArgumentOutOfRangeException">The block is in another chunk.</exception>
    /// <exception cref="InvalidOperationException">The chunk has no section with blocks there (making one is not
    /// supported yet).</exception>
    /// <exception cref="ArgumentException">A pre-1.13 section and a state that does not name an id.</exception>
    public void SetBlock(int x, int y, int z, BlockState state)
    {
        ArgumentNullException.ThrowIfNull(state);
        var (section, local) = Locate(x, y, z);
        if (section?.BlockStates is { } states)
        {
            states.Set(local.X, local.Y, local.Z, state);
        }
        else if (section?.BlockIds is { } ids)
        {
            var (id, data) = LegacyIdOf(state);
            ids.Set(local.X, local.Y, local.Z, id, data);
        }
        else
        {
            throw new InvalidOperationException(string.Create(CultureInfo.InvariantCulture, $"Chunk ({X}, {Z}) has no section with blocks at y {y}."));
        }
    }

    /// <summary>
    /// Finds every block of a name (properties aside; <c>legacy:ID</c> for blocks saved before 1.13), section by section
    /// from the lowest, each in the game's order (y, then z, then x). A section whose palette lacks the name is passed
    /// over without decoding its indices; one index buffer serves the whole walk.
    /// </summary>
    /// <param name="name">The block's name, such as <c>minecraft:diamond_ore</c>.</param>
    /// <returns>The blocks, at world coordinates.</returns>
    /// <exception cref="MillraceException">A section is not one the game writes (<see cref="NbtErrorCodes.World"/>).</exception>
    public IEnumerable<FoundBlock> FindBlocks(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return Walk(name);

        IEnumerable<FoundBlock> Walk(string name)
        {
            var indices = new int[SectionBlockStates.BlockCount];
            var wanted = new bool[16];
            var legacyId = name.StartsWith("legacy:", StringComparison.Ordinal)
                && int.TryParse(name.AsSpan("legacy:".Length), NumberStyles.None, CultureInfo.InvariantCulture, out var id) ? id : -1;
            foreach (var section in _sections)
            {
                IReadOnlyList<BlockState> palette;
                if (section.BlockStates is { } states)
                {
                    palette = states.Palette;
                    if (wanted.Length < palette.Count)
                    {
                        wanted = new bool[palette.Count];
                    }

                    var any = false;
                    for (var i = 0; i < palette.Count; i++)
                    {
                        any |= wanted[i] = palette[i].Name == name;
                    }

                    if (!any)
                    {
                        continue;
                    }

                    states.CopyIndicesTo(indices);
                    for (var i = 0; i < indices.Length; i++)
                    {
                        if (wanted[indices[i]])
                        {
                            yield return At(section.Y, i, palette[indices[i]]);
                        }
                    }
                }
                else if (legacyId >= 0 && section.BlockIds is { } ids)
                {
                    ids.CopyIdsTo(indices);
                    for (var i = 0; i < indices.Length; i++)
                    {
                        if (indices[i] == legacyId)
                        {
                            yield return At(section.Y, i, ids[i & 15, i >> 8, (i >> 4) & 15]);
                        }
                    }
                }
            }
        }
    }

    /// <summary>Gets whether any block of the chunk has a name (properties aside), stopping at the first.</summary>
    /// <param name="name">The block's name, such as <c>minecraft:chest</c> (<c>legacy:ID</c> before 1.13).</param>
    /// <returns><see langword="true"/> when one does.</returns>
    /// <exception cref="MillraceException">A section is not one the game writes (<see cref="NbtErrorCodes.World"/>).</exception>
    public bool ContainsBlock(string name) => FindBlocks(name).Any();

    // A block's world position from its section's Y and its index within the section (y, then z, then x).
    private FoundBlock At(int sectionY, int index, BlockState state) =>
        new((X << 4) | (index & 15), (sectionY << 4) | (index >> 8), (Z << 4) | ((index >> 4) & 15), state);

    private static int Position(NbtCompound level, string name, string prefix) =>
        level.TryGet<NbtInt>(name, out var position)
            ? position.Value
            : throw WorldErrors.Invalid($"A chunk needs an int '{name}'.", ErrorPath.Member(prefix, name));

    private static (int Id, int Data) LegacyIdOf(BlockState state)
    {
        var data = 0;
        foreach (var (key, value) in state.Properties)
        {
            if (key != "data" || !int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out data) || data > 15)
            {
                throw new ArgumentException($"A block saved before 1.13 takes 'legacy:ID[data=D]' (D from 0 to 15), not '{state}'.", nameof(state));
            }
        }

        return state.Name.StartsWith("legacy:", StringComparison.Ordinal)
            && int.TryParse(state.Name.AsSpan("legacy:".Length), NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id <= SectionBlockIds.MaxId
            ? (id, data)
            : throw new ArgumentException($"A block saved before 1.13 takes 'legacy:ID[data=D]' (ID from 0 to {SectionBlockIds.MaxId}), not '{state}'.", nameof(state));
    }

    private (ChunkSection? Section, (int X, int Y, int Z) Local) Locate(int x, int y, int z)
    {
        if (x >> 4 != X || z >> 4 != Z)
        {
            throw new ArgumentOutOfRangeException(nameof(x), string.Create(CultureInfo.InvariantCulture, $"Block ({x}, {y}, {z}) is in chunk ({x >> 4}, {z >> 4}), not ({X}, {Z})."));
        }

        return (SectionAt(y >> 4), (x & 15, y & 15, z & 15));
    }
}

using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// The block states of one chunk section (16 × 16 × 16 blocks), as a view over the section's own tags: the palette
/// and the packed indices into it. Reading changes nothing, so a section read and written without a change gives the
/// same bytes; <see cref="Set"/> writes the palette and indices back into the section as the game would write them.
/// </summary>
/// <remarks>
/// <para>
/// Two shapes are read. From 1.13 to 1.17, <c>Palette</c> (a list of entries) and <c>BlockStates</c> (the packed
/// indices, at least 4 bits each), in the spanning layout before DataVersion 2527 and padded from it (the game's own
/// upgrade of the layout, in 20w17a's development); the game writes air first, used or not, then the states in the
/// order blocks first use them. From 1.18, <c>block_states</c> holds <c>palette</c> and <c>data</c> (padded; at least
/// 4 bits; no <c>data</c> when the palette has one entry), the states in the order blocks first use them. A palette
/// listing a state twice, or an index past its end, is refused. Sections from before 1.13 (numeric <c>Blocks</c> and
/// <c>Data</c>) are read by <see cref="SectionBlockIds"/>.
/// </para>
/// <para>
/// Blocks are indexed as the game indexes them: <c>(y * 16 + z) * 16 + x</c>, each coordinate from 0 to 15 within the
/// section. A view is not for two threads at once; tags replaced behind it are found by the next <see cref="Set"/>,
/// which throws <see cref="InvalidOperationException"/> rather than write over them (read the section again).
/// </para>
/// </remarks>
public sealed class SectionBlockStates
{
    /// <summary>The number of blocks in a section.</summary>
    public const int BlockCount = 4096;

    /// <summary>The first DataVersion whose indices are packed in the padded layout: where the game's upgrade of the
    /// layout is registered (BitStorageAlignFix, in the development of the 1.16 snapshot 20w17a).</summary>
    public const int FirstPaddedDataVersion = 2527;

    private static readonly BlockState Air = new("minecraft:air");

    private readonly PalettedContainer<BlockState> _container;

    private SectionBlockStates(PalettedContainer<BlockState> container) => _container = container;

    /// <summary>Gets the palette, in its order on disk.</summary>
    public IReadOnlyList<BlockState> Palette => _container.Palette;

    /// <summary>Gets how the indices are packed.</summary>
    public PackedLayout Layout => _container.Layout;

    /// <summary>Gets the state of a block.</summary>
    /// <param name="x">The block's x within the section, 0 to 15.</param>
    /// <param name="y">The block's y within the section, 0 to 15.</param>
    /// <param name="z">The block's z within the section, 0 to 15.</param>
    /// <returns>The state.</returns>
    public BlockState this[int x, int y, int z] => _container[SectionIndex.Of(x, y, z)];

    /// <summary>Reads the block states of a section, or <see langword="null"/> for a section that holds none (one kept
    /// only for its light, or one from before 1.13: see <see cref="SectionBlockIds"/>).</summary>
    /// <param name="section">An entry of the chunk's <c>sections</c> (or <c>Level.Sections</c>) list.</param>
    /// <param name="dataVersion">The chunk's <c>DataVersion</c>, which decides the packing of 1.13-1.17 sections.</param>
    /// <returns>The view, or <see langword="null"/>.</returns>
    /// <exception cref="MillraceException">The section is not one the game writes (<see cref="NbtErrorCodes.World"/>),
    /// with the path within the section.</exception>
    public static SectionBlockStates? Read(NbtCompound section, int dataVersion)
    {
        ArgumentNullException.ThrowIfNull(section);
        if (section.TryGet<NbtTag>("block_states", out var states))
        {
            if (states is not NbtCompound container)
            {
                throw WorldErrors.Invalid($"'block_states' is a {states.Type}, not a compound.", "block_states");
            }

            return new(ReadContainer(container, "block_states", "palette", "data", PaletteRules.ModernBlocks));
        }

        if (section.Contains("Palette") || section.Contains("BlockStates"))
        {
            var layout = dataVersion >= FirstPaddedDataVersion ? PackedLayout.Padded : PackedLayout.Spanning;
            return new(ReadContainer(section, string.Empty, "Palette", "BlockStates", PaletteRules.Blocks(layout), Air));
        }

        return null;
    }

    /// <summary>Copies every block's palette index, in the game's order, without allocating.</summary>
    /// <param name="destination">At least <see cref="BlockCount"/> long.</param>
    public void CopyIndicesTo(Span<int> destination) => _container.CopyIndicesTo(destination);

    /// <summary>Writes how many blocks name each palette entry, without unpacking the indices again: they were counted
    /// (and checked) when the section was read.</summary>
    /// <param name="destination">At least <see cref="Palette"/>'s count long; entry <c>i</c> receives entry <c>i</c>'s count.</param>
    public void CountEntries(Span<int> destination) => _container.CountEntries(destination);

    /// <summary>
    /// Sets the state of a block and writes the section's palette and indices back: a state the palette lacks is
    /// added, the palette is compacted as the game writes it (1.18+: down to one entry and no <c>data</c> when every block
    /// is the same; 1.13-1.17: air first) and the indices are repacked at the width its size takes.
    /// </summary>
    /// <param name="x">The block's x within the section, 0 to 15.</param>
    /// <param name="y">The block's y within the section, 0 to 15.</param>
    /// <param name="z">The block's z within the section, 0 to 15.</param>
    /// <param name="state">The state.</param>
    /// <exception cref="InvalidOperationException">The section's palette or indices were replaced after this view read them.</exception>
    public void Set(int x, int y, int z, BlockState state) => _container.Set(SectionIndex.Of(x, y, z), state);

    private static PalettedContainer<BlockState> ReadContainer(NbtCompound container, string path, string paletteName, string dataName, PaletteRules rules, BlockState? pinned = null) =>
        PalettedContainer<BlockState>.Read(container, path, paletteName, dataName, BlockCount, rules, NbtTagType.Compound, static entry => BlockState.FromCompound((NbtCompound)entry), static state => state.ToCompound(), pinned);
}

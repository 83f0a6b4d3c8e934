using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// The biomes of one 1.18+ chunk section, as a view over its <c>biomes</c> container: a palette of biome names and
/// one index per cell of 4 × 4 × 4 blocks (64 cells, <c>(y * 4 + z) * 4 + x</c>), packed padded at the rounded-up
/// logarithm of the palette's size, with no <c>data</c> when the palette has one entry. Reading changes nothing;
/// <see cref="Set"/> writes the container back compacted, as the game writes it.
/// </summary>
/// <remarks>Before 1.18 biomes are a chunk's, not a section's (<c>Biomes</c>, numeric ids), and are not read here.</remarks>
public sealed class SectionBiomes
{
    /// <summary>The number of biome cells in a section.</summary>
    public const int CellCount = 64;

    private readonly PalettedContainer<string> _container;

    private SectionBiomes(PalettedContainer<string> container) => _container = container;

    /// <summary>Gets the palette of biome names, in its order on disk.</summary>
    public IReadOnlyList<string> Palette => _container.Palette;

    /// <summary>Gets the biome of a cell.</summary>
    /// <param name="x">The cell's x within the section, 0 to 3 (the block's x divided by 4).</param>
    /// <param name="y">The cell's y within the section, 0 to 3.</param>
    /// <param name="z">The cell's z within the section, 0 to 3.</param>
    /// <returns>The biome's name, such as <c>minecraft:plains</c>.</returns>
    public string this[int x, int y, int z] => _container[SectionIndex.OfCell(x, y, z)];

    /// <summary>Reads the biomes of a section, or <see langword="null"/> for a section that has none (before 1.18, or
    /// kept only for its light).</summary>
    /// <param name="section">An entry of the chunk's <c>sections</c> list.</param>
    /// <returns>The view, or <see langword="null"/>.</returns>
    /// <exception cref="MillraceException">The container is not one the game writes (<see cref="NbtErrorCodes.World"/>),
    /// with the path within the section.</exception>
    public static SectionBiomes? Read(NbtCompound section)
    {
        ArgumentNullException.ThrowIfNull(section);
        if (!section.TryGet<NbtTag>("biomes", out var biomes))
        {
            return null;
        }

        if (biomes is not NbtCompound container)
        {
            throw WorldErrors.Invalid($"'biomes' is a {biomes.Type}, not a compound.", "biomes");
        }

        return new(PalettedContainer<string>.Read(container, "biomes", "palette", "data", CellCount, PaletteRules.ModernBiomes, NbtTagType.String, Decode, static name => new NbtString(name)));
    }

    /// <summary>Copies every cell's palette index, in the game's order, without allocating.</summary>
    /// <param name="destination">At least <see cref="CellCount"/> long.</param>
    public void CopyIndicesTo(Span<int> destination) => _container.CopyIndicesTo(destination);

    /// <summary>Writes how many cells name each palette entry, without unpacking the indices again: they were counted
    /// when the section was read.</summary>
    /// <param name="destination">At least <see cref="Palette"/>'s count long; entry <c>i</c> receives entry <c>i</c>'s count.</param>
    public void CountEntries(Span<int> destination) => _container.CountEntries(destination);

    /// <summary>Sets the biome of a cell and writes the container back as the game writes it (compacted).</summary>
    /// <param name="x">The cell's x within the section, 0 to 3.</param>
    /// <param name="y">The cell's y within the section, 0 to 3.</param>
    /// <param name="z">The cell's z within the section, 0 to 3.</param>
    /// <param name="biome">The biome's name.</param>
    /// <exception cref="InvalidOperationException">The container's palette or indices were replaced after this view read them.</exception>
    public void Set(int x, int y, int z, string biome)
    {
        ArgumentException.ThrowIfNullOrEmpty(biome);
        _container.Set(SectionIndex.OfCell(x, y, z), biome);
    }

    private static string Decode(NbtTag entry) =>
        ((NbtString)entry).Value is { Length: > 0 } name ? name : throw WorldErrors.Invalid("A biome's name is empty.", string.Empty);
}

using System.Globalization;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// The biomes of a chunk saved before 1.18, one numeric id per entry of the chunk's <c>Level.Biomes</c> (the world keeps
/// no names for them; they show as <c>legacy:ID</c>): a column each before 1.15 (256 entries, a byte array before 1.13
/// and an int array from it, indexed <c>z * 16 + x</c>), a 4×4×4 cell each from 1.15 (an int array of 64 cells a
/// section's height, indexed <c>(y * 4 + z) * 4 + x</c> from the chunk's lowest cell). Read-only. An int array of 256
/// entries is read as columns: a 1.17 world of a custom height of 64 blocks, which would store 256 cells, is not told
/// apart.
/// </summary>
public sealed class ChunkBiomeIds
{
    /// <summary>The entries of a biome array with one per column.</summary>
    public const int ColumnCount = 256;

    private readonly int[] _ids;

    private ChunkBiomeIds(int[] ids, bool isCells)
    {
        _ids = ids;
        IsCells = isCells;
    }

    /// <summary>Gets a value indicating whether an entry is a 4×4×4 cell (1.15-1.17) rather than a column (before 1.15).</summary>
    public bool IsCells { get; }

    /// <summary>Gets the number of entries.</summary>
    public int Count => _ids.Length;

    /// <summary>Gets the id of an entry, in the array's order.</summary>
    /// <param name="index">The entry, from 0 to <see cref="Count"/> − 1.</param>
    /// <returns>The id.</returns>
    public int this[int index] => _ids[index];

    /// <summary>Copies every id, in the array's order.</summary>
    /// <param name="destination">At least <see cref="Count"/> long.</param>
    public void CopyIdsTo(Span<int> destination) => _ids.CopyTo(destination);

    /// <summary>Reads a pre-1.18 chunk's biomes, or <see langword="null"/> when its <c>Level</c> has none (or, as the game
    /// writes for a chunk not generated that far, an empty int array).</summary>
    /// <param name="level">The chunk's <c>Level</c> compound.</param>
    /// <returns>The view, or <see langword="null"/>.</returns>
    /// <exception cref="MillraceException">The array is not one the game writes (<see cref="NbtErrorCodes.World"/>): not a
    /// byte or int array, or a length that is neither 256 nor a positive multiple of 64.</exception>
    internal static ChunkBiomeIds? Read(NbtCompound level)
    {
        if (!level.TryGet<NbtTag>("Biomes", out var tag))
        {
            return null;
        }

        int[] ids = tag switch
        {
            NbtByteArray bytes => [.. bytes.Value.Select(b => (int)b)],
            NbtIntArray ints => [.. ints.Value],
            _ => throw WorldErrors.Invalid($"'Biomes' is a {tag.Type}, not a byte or int array.", "Level.Biomes"),
        };

        // The game writes an empty int array for a chunk not yet generated as far as its biomes (1.13-1.14 files hold
        // them): no biomes yet. Otherwise a column each (256), or from 1.15 a 4x4x4 cell each: a whole number of 64-cell
        // sections.
        if (ids.Length == 0 && tag is NbtIntArray)
        {
            return null;
        }

        var isCells = tag is NbtIntArray && ids.Length != ColumnCount;
        if ((tag is NbtByteArray && ids.Length != ColumnCount) || (isCells && (ids.Length == 0 || ids.Length % SectionBiomes.CellCount != 0)))
        {
            throw WorldErrors.Invalid(string.Create(CultureInfo.InvariantCulture, $"'Biomes' has {ids.Length} entries: the game writes 256 (a column each) or, from 1.15, 64 a section (a 4x4x4 cell each)."), "Level.Biomes");
        }

        return new ChunkBiomeIds(ids, isCells);
    }
}

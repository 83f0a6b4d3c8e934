namespace Millrace.Nbt.Worlds;

/// <summary>Where a block or a biome cell lies in its section's arrays: the game's order, y then z then x.</summary>
internal static class SectionIndex
{
    /// <summary>A block's index, <c>(y * 16 + z) * 16 + x</c>, each coordinate from 0 to 15.</summary>
    public static int Of(int x, int y, int z)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)x, 15u, nameof(x));
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)y, 15u, nameof(y));
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)z, 15u, nameof(z));
        return (((y << 4) | z) << 4) | x;
    }

    /// <summary>A biome cell's index, <c>(y * 4 + z) * 4 + x</c>, each coordinate from 0 to 3 (a cell is 4 blocks wide).</summary>
    public static int OfCell(int x, int y, int z)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)x, 3u, nameof(x));
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)y, 3u, nameof(y));
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)z, 3u, nameof(z));
        return (((y << 2) | z) << 2) | x;
    }
}

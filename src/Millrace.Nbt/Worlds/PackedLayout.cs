namespace Millrace.Nbt.Worlds;

/// <summary>How a chunk section packs its palette indices into a long array.</summary>
public enum PackedLayout
{
    /// <summary>
    /// Entries follow each other bit after bit, one crossing into the next long where it does not fit (1.13 to 1.15,
    /// before DataVersion 2527).
    /// </summary>
    Spanning,

    /// <summary>
    /// Each long holds as many whole entries as fit, the bits left over are zero (1.16 and later, DataVersion 2527 on).
    /// </summary>
    Padded,
}

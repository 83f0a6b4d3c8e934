namespace Millrace.Nbt.Region;

/// <summary>A chunk present in a region file.</summary>
/// <param name="X">The chunk's x within the region, 0 to 31.</param>
/// <param name="Z">The chunk's z within the region, 0 to 31.</param>
/// <param name="Compression">How its payload is compressed.</param>
/// <param name="CompressedLength">The payload's stored length in bytes.</param>
/// <param name="Timestamp">When it was last saved.</param>
/// <param name="IsExternal">Whether the payload lives in a separate <c>.mcc</c> file because it is over 1 MiB.</param>
public readonly record struct RegionChunk(int X, int Z, RegionCompression Compression, int CompressedLength, DateTimeOffset Timestamp, bool IsExternal);

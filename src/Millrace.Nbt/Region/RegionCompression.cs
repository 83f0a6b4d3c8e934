namespace Millrace.Nbt.Region;

/// <summary>How a chunk is compressed inside a region file, by its id.</summary>
public enum RegionCompression : byte
{
    /// <summary>gzip (1); rarely used by Minecraft.</summary>
    Gzip = 1,

    /// <summary>zlib (2); Minecraft's default.</summary>
    Zlib = 2,

    /// <summary>Uncompressed (3).</summary>
    None = 3,

    /// <summary>LZ4 (4), since 1.20.5: lz4-java's block stream (<c>LZ4BlockOutputStream</c>).</summary>
    Lz4 = 4,
}

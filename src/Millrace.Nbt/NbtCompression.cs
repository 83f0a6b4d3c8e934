namespace Millrace.Nbt;

/// <summary>The compression around an NBT payload.</summary>
public enum NbtCompression
{
    /// <summary>Raw bytes.</summary>
    None,

    /// <summary>gzip (RFC 1952), as Java's <c>level.dat</c> and player files use.</summary>
    Gzip,

    /// <summary>zlib (RFC 1950), as region file chunks use.</summary>
    Zlib,
}

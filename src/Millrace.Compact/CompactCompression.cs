namespace Millrace.Compact;

/// <summary>The compression of a frame's body.</summary>
public enum CompactCompression
{
    /// <summary>No compression (flag value 0).</summary>
    None = 0,

    /// <summary>zlib-wrapped deflate (flag value 1), as the seed encoder uses.</summary>
    Deflate = 1,

    /// <summary>Brotli (flag value 2).</summary>
    Brotli = 2,

    /// <summary>zstd (flag value 3), with a <see cref="CompactZstdDictionary"/> when one is given.</summary>
    Zstd = 3,

    /// <summary>On write only: whichever of none, deflate, Brotli and zstd is smallest.</summary>
    Auto = 4,
}

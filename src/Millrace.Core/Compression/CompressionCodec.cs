namespace Millrace.Compression;

/// <summary>The compressions Millrace's formats wrap their bytes in.</summary>
public enum CompressionCodec
{
    /// <summary>gzip (RFC 1952): one member, its CRC-32 and length trailer verified.</summary>
    Gzip,

    /// <summary>zlib (RFC 1950): its Adler-32 trailer verified.</summary>
    Zlib,

    /// <summary>Brotli (RFC 7932): the stream must end exactly where the input ends.</summary>
    Brotli,

    /// <summary>Zstandard (RFC 8878): written with a content checksum, verified when present; optionally with a dictionary.</summary>
    Zstd,

    /// <summary>
    /// lz4-java's block stream (<c>LZ4BlockOutputStream</c>), Minecraft's region chunk compression 4: 64 KiB LZ4 blocks,
    /// each with its XXH32 checksum verified, and an end block that must end the input.
    /// </summary>
    Lz4Block,
}

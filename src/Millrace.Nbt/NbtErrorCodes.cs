namespace Millrace.Nbt;

/// <summary>The codes of <see cref="MillraceException.Error"/> of an <see cref="NbtFormatException"/>, beside <c>JsonErrorCodes</c> and <c>CompactErrorCodes</c>.</summary>
public static class NbtErrorCodes
{
    /// <summary>The input ends where more bytes were expected.</summary>
    public const string Truncated = "nbt.truncated";

    /// <summary>A length or count is negative or needs more bytes than remain.</summary>
    public const string BadLength = "nbt.bad-length";

    /// <summary>A tag type id that NBT does not have.</summary>
    public const string UnknownTag = "nbt.unknown-tag";

    /// <summary>A string that is not valid (Modified) UTF-8, or a varint that is malformed or overlong.</summary>
    public const string BadEncoding = "nbt.bad-encoding";

    /// <summary>Nesting deeper than <see cref="NbtReaderOptions.MaxDepth"/> or than the thread's stack can read.</summary>
    public const string Depth = "nbt.depth";

    /// <summary>The tree accounts for more than <see cref="NbtReaderOptions.MaxBytes"/>.</summary>
    public const string Quota = "nbt.quota";

    /// <summary>Bytes follow the root tag.</summary>
    public const string TrailingBytes = "nbt.trailing-bytes";

    /// <summary>A structure NBT forbids: a root that is an End tag, a list of End tags with elements.</summary>
    public const string Structure = "nbt.structure";

    /// <summary>The compressed input is corrupt, truncated, fails its checksum, has bytes after it, or inflates past the quota.</summary>
    public const string Compression = "nbt.compression";

    /// <summary>The input reads whole in more than one flavour, with different trees.</summary>
    public const string Ambiguous = "nbt.ambiguous";

    /// <summary>A region file's header or chunk framing is corrupt.</summary>
    public const string Region = "nbt.region";

    /// <summary>SNBT text that does not parse.</summary>
    public const string Syntax = "nbt.syntax";

    /// <summary>A tag whose type does not fit the typed member it is read into, or a required member that is missing.</summary>
    public const string Type = "nbt.type";

    /// <summary>A chunk or section whose tags are well-formed NBT but not what the game writes there (a palette index past
    /// the palette, a packed array of the wrong length, a palette entry without a name).</summary>
    public const string World = "nbt.world";

    /// <summary>A chunk query (<see cref="Worlds.ChunkQuery"/>) that does not parse, located at a byte of its text.</summary>
    public const string Query = "nbt.query";

    /// <summary>Any other malformed input.</summary>
    public const string Format = "nbt.format";
}

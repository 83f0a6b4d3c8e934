namespace Millrace.Compact;

/// <summary>The codes of <see cref="MillraceException.Error"/> of a <see cref="CompactFormatException"/>, beside <c>JsonErrorCodes</c> and <c>NbtErrorCodes</c>.</summary>
public static class CompactErrorCodes
{
    /// <summary>The payload ends where more bytes were expected.</summary>
    public const string Truncated = "compact.truncated";

    /// <summary>A length or count needs more bytes than remain.</summary>
    public const string BadLength = "compact.bad-length";

    /// <summary>A malformed or overlong varint, invalid UTF-8, or a fixed-size value of the wrong size.</summary>
    public const string BadEncoding = "compact.bad-encoding";

    /// <summary>A field key with an invalid index or wire type.</summary>
    public const string BadKey = "compact.bad-key";

    /// <summary>A field whose wire type differs from its type in the schema.</summary>
    public const string TypeChanged = "compact.type-changed";

    /// <summary>A value outside its type's range: a bool of 2, a bad decimal, an integer past its member's or field's range
    /// (an int32 field holding 2^40), a timestamp past the dates a reader holds, NaN or an infinity where JSON has none.</summary>
    public const string BadValue = "compact.bad-value";

    /// <summary>Nesting deeper than <see cref="CompactLimits.MaxDepth"/>.</summary>
    public const string Depth = "compact.depth";

    /// <summary>A string, collection, body or field count over its limit in <see cref="CompactLimits"/>.</summary>
    public const string Limit = "compact.limit";

    /// <summary>A frame header this reader does not know: version, flags, or a type id it has no schema for.</summary>
    public const string Frame = "compact.frame";

    /// <summary>A compressed body that is corrupt, truncated, fails its checksum, or has bytes after it.</summary>
    public const string Compression = "compact.compression";

    /// <summary>Bytes follow the last element or record.</summary>
    public const string TrailingBytes = "compact.trailing-bytes";

    /// <summary>
    /// A record that holds one of its fields twice, or a map one of its keys twice (in a frame, or in JSON to encode): a
    /// writer writes each once, so there is no value to choose between.
    /// </summary>
    public const string Repeated = "compact.repeated";

    /// <summary>A record without a field its schema requires (one that does not omit its default).</summary>
    public const string MissingField = "compact.missing-field";

    /// <summary>JSON that does not fit the schema when encoding.</summary>
    public const string Schema = "compact.schema";

    /// <summary>Any other malformed input.</summary>
    public const string Format = "compact.format";
}

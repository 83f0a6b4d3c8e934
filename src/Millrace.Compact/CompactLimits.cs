namespace Millrace.Compact;

/// <summary>Limits for reading compact payloads. Init-only, so one instance can be shared.</summary>
public sealed class CompactLimits
{
    /// <summary>Gets the default limits.</summary>
    public static CompactLimits Default { get; } = new();

    /// <summary>Gets the deepest nesting of records, lists and maps.</summary>
    /// <value>Default 64.</value>
    public int MaxDepth { get; init; } = 64;

    /// <summary>Gets the most elements of one list or map, or records of one collection frame.</summary>
    /// <value>Default 1,000,000.</value>
    public int MaxCollectionCount { get; init; } = 1_000_000;

    /// <summary>Gets the longest string or byte string, in bytes.</summary>
    /// <value>Default 16 MiB.</value>
    public int MaxStringLength { get; init; } = 16 * 1024 * 1024;

    /// <summary>Gets the largest body after decompression, in bytes.</summary>
    /// <value>Default 64 MiB.</value>
    public int MaxBodyLength { get; init; } = 64 * 1024 * 1024;
}

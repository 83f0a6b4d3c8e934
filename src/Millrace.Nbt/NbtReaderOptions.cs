namespace Millrace.Nbt;

/// <summary>Limits and flavour for reading NBT. Init-only, so one instance can be shared.</summary>
public sealed class NbtReaderOptions
{
    /// <summary>The default nesting limit, as Minecraft's.</summary>
    public const int DefaultMaxDepth = 512;

    /// <summary>The default byte quota, as Minecraft's accounter for files: 100 MiB.</summary>
    public const long DefaultMaxBytes = 100L * 1024 * 1024;

    /// <summary>The byte quota Minecraft uses for network payloads: 2 MiB.</summary>
    public const long NetworkMaxBytes = 2L * 1024 * 1024;

    /// <summary>Gets options for Java files with the default limits.</summary>
    public static NbtReaderOptions Default { get; } = new();

    /// <summary>Gets the binary flavour.</summary>
    /// <value>Default <see cref="NbtFormat.Java"/>.</value>
    public NbtFormat Format { get; init; } = NbtFormat.Java;

    /// <summary>Gets the deepest nesting of compounds and lists allowed.</summary>
    /// <value>Default <see cref="DefaultMaxDepth"/>. At least 1.</value>
    public int MaxDepth { get; init; } = DefaultMaxDepth;

    /// <summary>
    /// Gets the most bytes the tree may account for, counted as Minecraft's accounter does (each tag's
    /// header and payload); exceeding it is an error, so a small malicious input cannot make a huge tree.
    /// </summary>
    /// <value>Default <see cref="DefaultMaxBytes"/>; <see cref="NetworkMaxBytes"/> for network payloads.</value>
    public long MaxBytes { get; init; } = DefaultMaxBytes;

    /// <summary>Gets a value indicating whether a list of compounds that each hold a single empty-named tag is unwrapped into a list of those tags (1.21.5 heterogeneous lists).</summary>
    /// <value>Default <see langword="false"/>: lists are read exactly as stored.</value>
    public bool UnwrapHeterogeneousLists { get; init; }
}

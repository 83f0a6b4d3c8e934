using Millrace.Nbt.Binary;
using Millrace.Nbt.Snbt;

namespace Millrace.Nbt;

/// <summary>
/// Limits and flavour for reading NBT. Init-only and validated as set, so one instance can be shared and a bad limit
/// is refused where it is written; a record, so <c>options with { Format = NbtFormat.Bedrock }</c> keeps every other limit.
/// </summary>
public sealed record NbtReaderOptions
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
    /// <exception cref="ArgumentOutOfRangeException">The value is not one of <see cref="NbtFormat"/>'s.</exception>
    public NbtFormat Format { get; init => field = NbtThrow.DefinedFormat(value, nameof(Format)); } = NbtFormat.Java;

    /// <summary>Gets the deepest nesting of compounds and lists allowed.</summary>
    /// <value>
    /// Default <see cref="DefaultMaxDepth"/>. At least 1. A raised limit is safe: tree readers that run short of stack
    /// first report it as an error, and the pull reader and <c>Skip</c> use no call stack for nesting.
    /// </value>
    /// <exception cref="ArgumentOutOfRangeException">The value is less than 1.</exception>
    public int MaxDepth
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1, nameof(MaxDepth));
            field = value;
        }
    }

    = DefaultMaxDepth;

    /// <summary>
    /// Gets the most bytes the tree may account for, counted as Minecraft's accounter does (each tag's
    /// header and payload); exceeding it is an error, so a small malicious input cannot make a huge tree.
    /// </summary>
    /// <value>Default <see cref="DefaultMaxBytes"/>; <see cref="NetworkMaxBytes"/> for network payloads. At least 1.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is less than 1.</exception>
    public long MaxBytes
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1, nameof(MaxBytes));
            field = value;
        }
    }

    = DefaultMaxBytes;

    /// <summary>
    /// Gets a value indicating whether lists in Minecraft 1.21.5's heterogeneous encoding (compounds, some holding a single
    /// empty-named tag) are unwrapped into lists of mixed types. Only a list that is exactly what Minecraft's writer makes
    /// of a mixed list is unwrapped, so writing it again gives the same bytes.
    /// </summary>
    /// <value>Default <see langword="false"/>: lists are read exactly as stored.</value>
    public bool UnwrapHeterogeneousLists { get; init; }

    /// <summary>Gets which Minecraft's grammar <see cref="SnbtParser"/> reads SNBT with.</summary>
    /// <value>Default <see cref="SnbtSyntax.Modern"/>, 1.21.5 and later.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is not one of <see cref="Snbt.SnbtSyntax"/>'s.</exception>
    public SnbtSyntax SnbtSyntax
    {
        get;
        init => field = value is SnbtSyntax.Modern or SnbtSyntax.Legacy
            ? value
            : throw new ArgumentOutOfRangeException(nameof(SnbtSyntax), value, "Not an SNBT syntax.");
    }
}

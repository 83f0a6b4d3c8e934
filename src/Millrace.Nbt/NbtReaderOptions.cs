using Millrace.Nbt.Binary;
using Millrace.Nbt.Snbt;

namespace Millrace.Nbt;

/// <summary>
/// Limits and flavour for reading NBT: an init-only record, so one instance can be shared by concurrent readers and a
/// variant is one expression (<c>options with { Format = NbtFormat.Bedrock }</c>). Defaults are in
/// <see cref="NbtReaderConstants"/>; <see cref="Validate"/> reports every invalid option at once, and every reader
/// validates the options it is given.
/// </summary>
public sealed record NbtReaderOptions
{
    /// <summary>Gets options for Java files with the default limits.</summary>
    public static NbtReaderOptions Default { get; } = new();

    /// <summary>Gets the binary flavour.</summary>
    /// <value>Default <see cref="NbtFormat.Java"/>. One of <see cref="NbtFormat"/>'s values.</value>
    public NbtFormat Format { get; init; } = NbtFormat.Java;

    /// <summary>Gets the deepest nesting of compounds and lists allowed.</summary>
    /// <value>
    /// Default <see cref="NbtReaderConstants.MaxDepth"/>. At least 1. A raised limit is safe: tree readers that run short
    /// of stack first report it as an error, and the pull reader and <c>Skip</c> use no call stack for nesting.
    /// </value>
    public int MaxDepth { get; init; } = NbtReaderConstants.MaxDepth;

    /// <summary>
    /// Gets the most bytes the tree may account for, counted as Minecraft's accounter does (each tag's
    /// header and payload); exceeding it is an error, so a small malicious input cannot make a huge tree.
    /// </summary>
    /// <value>Default <see cref="NbtReaderConstants.MaxBytes"/>; <see cref="NbtReaderConstants.NetworkMaxBytes"/> for network payloads. At least 1.</value>
    public long MaxBytes { get; init; } = NbtReaderConstants.MaxBytes;

    /// <summary>
    /// Gets a value indicating whether lists in Minecraft 1.21.5's heterogeneous encoding (compounds, some holding a single
    /// empty-named tag) are unwrapped into lists of mixed types. Only a list that is exactly what Minecraft's writer makes
    /// of a mixed list is unwrapped, so writing it again gives the same bytes.
    /// </summary>
    /// <value>Default <see langword="false"/>: lists are read exactly as stored.</value>
    public bool UnwrapHeterogeneousLists { get; init; }

    /// <summary>Gets which Minecraft's grammar <see cref="SnbtParser"/> reads SNBT with.</summary>
    /// <value>Default <see cref="SnbtSyntax.Modern"/>, 1.21.5 and later. One of <see cref="Snbt.SnbtSyntax"/>'s values.</value>
    public SnbtSyntax SnbtSyntax { get; init; } = SnbtSyntax.Modern;

    /// <summary>Checks every option and reports all the problems at once.</summary>
    /// <exception cref="ArgumentException">One or more options are invalid; the message lists each.</exception>
    public void Validate()
    {
        // The list is made only for a problem: readers validate on every call, and a valid read allocates nothing here.
        List<string>? problems = null;
        if (!NbtThrow.IsDefined(Format))
        {
            (problems ??= []).Add(OptionsValidation.Describe(nameof(Format), "is not an NBT flavour", Format));
        }

        if (MaxDepth < 1)
        {
            (problems ??= []).Add(OptionsValidation.Describe(nameof(MaxDepth), "must be at least 1", MaxDepth));
        }

        if (MaxBytes < 1)
        {
            (problems ??= []).Add(OptionsValidation.Describe(nameof(MaxBytes), "must be at least 1", MaxBytes));
        }

        if (SnbtSyntax is not (SnbtSyntax.Modern or SnbtSyntax.Legacy))
        {
            (problems ??= []).Add(OptionsValidation.Describe(nameof(SnbtSyntax), "is not an SNBT syntax", SnbtSyntax));
        }

        if (problems is not null)
        {
            OptionsValidation.ThrowIfAny(problems, "Invalid NBT reader options:");
        }
    }
}

namespace Millrace.Compact;

/// <summary>
/// Limits for reading compact payloads: an init-only record, so one instance can be shared and a variant is one
/// expression (<c>limits with { MaxBodyLength = … }</c>). Defaults are in <see cref="CompactLimitsConstants"/>;
/// <see cref="Validate"/> reports every invalid limit at once, and every reader validates the limits it is given.
/// </summary>
public sealed record CompactLimits
{
    /// <summary>Gets the default limits, for payloads of any size from sources the reader trusts as far as its memory.</summary>
    public static CompactLimits Default { get; } = new();

    /// <summary>
    /// Gets limits for frames from untrusted sources (a public endpoint, a message queue open to others): bodies, strings
    /// and descriptions of at most <see cref="CompactLimitsConstants.UntrustedMaxBodyLength"/>, collections and
    /// inspections of at most <see cref="CompactLimitsConstants.UntrustedMaxCount"/> elements, the default depth.
    /// </summary>
    public static CompactLimits Untrusted { get; } = new()
    {
        MaxBodyLength = CompactLimitsConstants.UntrustedMaxBodyLength,
        MaxStringLength = CompactLimitsConstants.UntrustedMaxBodyLength,
        MaxCollectionCount = CompactLimitsConstants.UntrustedMaxCount,
        MaxFieldCount = CompactLimitsConstants.UntrustedMaxCount,
        MaxDescriptionLength = CompactLimitsConstants.UntrustedMaxBodyLength,
    };

    /// <summary>Gets the deepest nesting of records, lists and maps.</summary>
    /// <value>Default <see cref="CompactLimitsConstants.MaxDepth"/>; from 1 to <see cref="CompactLimitsConstants.MaxAllowedDepth"/>.</value>
    public int MaxDepth { get; init; } = CompactLimitsConstants.MaxDepth;

    /// <summary>Gets the most elements of one list or map, or records of one collection frame.</summary>
    /// <value>Default <see cref="CompactLimitsConstants.MaxCollectionCount"/>; at least 0.</value>
    public int MaxCollectionCount { get; init; } = CompactLimitsConstants.MaxCollectionCount;

    /// <summary>Gets the longest string or byte string, in bytes.</summary>
    /// <value>Default <see cref="CompactLimitsConstants.MaxStringLength"/>; at least 0.</value>
    public int MaxStringLength { get; init; } = CompactLimitsConstants.MaxStringLength;

    /// <summary>Gets the largest body, after decompression, in bytes.</summary>
    /// <value>Default <see cref="CompactLimitsConstants.MaxBodyLength"/>; at least 0.</value>
    public int MaxBodyLength { get; init; } = CompactLimitsConstants.MaxBodyLength;

    /// <summary>
    /// Gets the most fields and elements one <see cref="CompactInspector.Describe"/> reads, trial parses included, so the
    /// work and text of a description stay bounded whatever the body's shape.
    /// </summary>
    /// <value>Default <see cref="CompactLimitsConstants.MaxFieldCount"/>; at least 1.</value>
    public int MaxFieldCount { get; init; } = CompactLimitsConstants.MaxFieldCount;

    /// <summary>
    /// Gets the most characters one <see cref="CompactInspector.Describe"/> writes: a body of many small fields describes
    /// in many more bytes than it holds (a two-byte field is a line of 25 characters), so the text is bounded of its own.
    /// </summary>
    /// <value>Default <see cref="CompactLimitsConstants.MaxDescriptionLength"/>; at least <see cref="CompactLimitsConstants.MinDescriptionLength"/>.</value>
    public int MaxDescriptionLength { get; init; } = CompactLimitsConstants.MaxDescriptionLength;

    /// <summary>Checks every limit and reports all the problems at once.</summary>
    /// <exception cref="ArgumentException">One or more limits are invalid; the message lists each.</exception>
    public void Validate()
    {
        // The list is made only for a problem: readers validate on every call, and a valid read allocates nothing here.
        List<string>? problems = null;
        if (MaxDepth is < 1 or > CompactLimitsConstants.MaxAllowedDepth)
        {
            (problems ??= []).Add(OptionsValidation.Describe(nameof(MaxDepth), $"must be from 1 to {CompactLimitsConstants.MaxAllowedDepth}", MaxDepth));
        }

        Check(ref problems, nameof(MaxCollectionCount), MaxCollectionCount, 0);
        Check(ref problems, nameof(MaxStringLength), MaxStringLength, 0);
        Check(ref problems, nameof(MaxBodyLength), MaxBodyLength, 0);
        Check(ref problems, nameof(MaxFieldCount), MaxFieldCount, 1);
        Check(ref problems, nameof(MaxDescriptionLength), MaxDescriptionLength, CompactLimitsConstants.MinDescriptionLength);
        if (problems is not null)
        {
            OptionsValidation.ThrowIfAny(problems, "Invalid compact limits:");
        }

        static void Check(ref List<string>? problems, string name, int value, int least)
        {
            if (value < least)
            {
                (problems ??= []).Add(OptionsValidation.Describe(name, $"must be at least {least}", value));
            }
        }
    }
}

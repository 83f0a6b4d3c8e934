namespace Millrace.Compact;

/// <summary>
/// Limits for reading compact payloads, sized by default for untrusted input. Init-only and validated as set, so one
/// instance can be shared and a bad limit is refused where it is written; a record, so <c>limits with { … }</c> works.
/// </summary>
public sealed record CompactLimits
{
    /// <summary>The default nesting limit.</summary>
    public const int DefaultMaxDepth = 64;

    /// <summary>The default element count of one list, map or collection frame.</summary>
    public const int DefaultMaxCollectionCount = 1_000_000;

    /// <summary>The default longest string, in bytes: 16 MiB.</summary>
    public const int DefaultMaxStringLength = 16 * 1024 * 1024;

    /// <summary>The default largest body after decompression: 64 MiB.</summary>
    public const int DefaultMaxBodyLength = 64 * 1024 * 1024;

    /// <summary>The default number of fields and elements one inspection reads.</summary>
    public const int DefaultMaxFieldCount = 1_000_000;

    /// <summary>The default longest description one inspection writes, in characters: 2 Mi (4 MiB of text, some 80,000 lines).</summary>
    public const int DefaultMaxDescriptionLength = 2 * 1024 * 1024;

    /// <summary>
    /// The body limit of <see cref="Untrusted"/>: 1 MiB. A compact payload is one record or a page of them, sent as a
    /// request or an event; 1 MiB is what web servers accept for a request body unless told otherwise (nginx's
    /// <c>client_max_body_size</c>), and a server decoding frames from strangers then spends at most about 2 MiB on one.
    /// </summary>
    public const int UntrustedMaxBodyLength = 1024 * 1024;

    /// <summary>
    /// The deepest nesting <see cref="MaxDepth"/> accepts: generated readers recurse once per level, and this keeps a
    /// raised limit well inside a thread's stack.
    /// </summary>
    public const int MaxAllowedDepth = 1024;

    /// <summary>Gets the default limits, for payloads of any size from sources the reader trusts as far as its memory.</summary>
    public static CompactLimits Default { get; } = new();

    /// <summary>
    /// Gets limits for frames from untrusted sources (a public endpoint, a message queue open to others): bodies, strings
    /// and descriptions of at most <see cref="UntrustedMaxBodyLength"/>, collections and inspections of at most 65,536
    /// elements, the default depth.
    /// </summary>
    public static CompactLimits Untrusted { get; } = new()
    {
        MaxBodyLength = UntrustedMaxBodyLength,
        MaxStringLength = UntrustedMaxBodyLength,
        MaxCollectionCount = 65_536,
        MaxFieldCount = 65_536,
        MaxDescriptionLength = UntrustedMaxBodyLength,
    };

    /// <summary>Gets the deepest nesting of records, lists and maps.</summary>
    /// <value>Default <see cref="DefaultMaxDepth"/>; from 1 to <see cref="MaxAllowedDepth"/>.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is outside that range.</exception>
    public int MaxDepth
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1, nameof(MaxDepth));
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, MaxAllowedDepth, nameof(MaxDepth));
            field = value;
        }
    }

    = DefaultMaxDepth;

    /// <summary>Gets the most elements of one list or map, or records of one collection frame.</summary>
    /// <value>Default <see cref="DefaultMaxCollectionCount"/>; at least 0.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public int MaxCollectionCount
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value, nameof(MaxCollectionCount));
            field = value;
        }
    }

    = DefaultMaxCollectionCount;

    /// <summary>Gets the longest string or byte string, in bytes.</summary>
    /// <value>Default <see cref="DefaultMaxStringLength"/>; at least 0.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public int MaxStringLength
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value, nameof(MaxStringLength));
            field = value;
        }
    }

    = DefaultMaxStringLength;

    /// <summary>Gets the largest body, after decompression, in bytes.</summary>
    /// <value>Default <see cref="DefaultMaxBodyLength"/>; at least 0.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public int MaxBodyLength
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value, nameof(MaxBodyLength));
            field = value;
        }
    }

    = DefaultMaxBodyLength;

    /// <summary>
    /// Gets the most fields and elements one <see cref="CompactInspector.Describe"/> reads, trial parses included, so the
    /// work and text of a description stay bounded whatever the body's shape.
    /// </summary>
    /// <value>Default <see cref="DefaultMaxFieldCount"/>; at least 1.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is less than 1.</exception>
    public int MaxFieldCount
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1, nameof(MaxFieldCount));
            field = value;
        }
    }

    = DefaultMaxFieldCount;

    /// <summary>
    /// Gets the most characters one <see cref="CompactInspector.Describe"/> writes: a body of many small fields describes
    /// in many more bytes than it holds (a two-byte field is a line of 25 characters), so the text is bounded of its own.
    /// </summary>
    /// <value>Default <see cref="DefaultMaxDescriptionLength"/>; at least 1,024.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is less than 1,024.</exception>
    public int MaxDescriptionLength
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1024, nameof(MaxDescriptionLength));
            field = value;
        }
    }

    = DefaultMaxDescriptionLength;
}

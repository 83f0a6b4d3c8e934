namespace Millrace.Compact;

/// <summary>The documented defaults and bounds of <see cref="CompactLimits"/>.</summary>
public static class CompactLimitsConstants
{
    /// <summary>The default nesting limit.</summary>
    /// <value>64.</value>
    public const int MaxDepth = 64;

    /// <summary>
    /// The deepest nesting <see cref="CompactLimits.MaxDepth"/> accepts: generated readers recurse once per level, and
    /// this keeps a raised limit well inside a thread's stack.
    /// </summary>
    /// <value>1,024.</value>
    public const int MaxAllowedDepth = 1024;

    /// <summary>The default element count of one list, map or collection frame.</summary>
    /// <value>1,000,000.</value>
    public const int MaxCollectionCount = 1_000_000;

    /// <summary>The default longest string, in bytes.</summary>
    /// <value>16 MiB.</value>
    public const int MaxStringLength = 16 * 1024 * 1024;

    /// <summary>The default largest body after decompression.</summary>
    /// <value>64 MiB.</value>
    public const int MaxBodyLength = 64 * 1024 * 1024;

    /// <summary>The default number of fields and elements one inspection reads.</summary>
    /// <value>1,000,000.</value>
    public const int MaxFieldCount = 1_000_000;

    /// <summary>The default longest description one inspection writes, in characters.</summary>
    /// <value>2 Mi (4 MiB of text, some 80,000 lines).</value>
    public const int MaxDescriptionLength = 2 * 1024 * 1024;

    /// <summary>The shortest description limit <see cref="CompactLimits.MaxDescriptionLength"/> accepts, in characters.</summary>
    /// <value>1,024.</value>
    public const int MinDescriptionLength = 1024;

    /// <summary>
    /// The body limit of <see cref="CompactLimits.Untrusted"/>. A compact payload is one record or a page of them, sent
    /// as a request or an event; 1 MiB is what web servers accept for a request body unless told otherwise (nginx's
    /// <c>client_max_body_size</c>), and a server decoding frames from strangers then spends at most about 2 MiB on one.
    /// </summary>
    /// <value>1 MiB.</value>
    public const int UntrustedMaxBodyLength = 1024 * 1024;

    /// <summary>The collection, field and element counts of <see cref="CompactLimits.Untrusted"/>.</summary>
    /// <value>65,536.</value>
    public const int UntrustedMaxCount = 65_536;
}

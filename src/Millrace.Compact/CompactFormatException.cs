namespace Millrace.Compact;

/// <summary>The one exception the compact readers throw for malformed or mismatched input: where (byte offset in the
/// uncompressed body, field path such as <c>User.tags[2]</c>) and why.</summary>
public sealed class CompactFormatException : LocatedFormatException
{
    /// <summary>Initializes a new instance.</summary>
    /// <param name="reason">Why the input is rejected.</param>
    /// <param name="byteOffset">The offset of the offending byte.</param>
    public CompactFormatException(string reason, long byteOffset)
        : base(reason, byteOffset)
    {
    }

    /// <summary>Initializes a new instance.</summary>
    public CompactFormatException()
        : this("The compact payload is malformed.", 0)
    {
    }

    /// <summary>Initializes a new instance with a message.</summary>
    /// <param name="message">The message.</param>
    public CompactFormatException(string message)
        : this(message, 0)
    {
    }

    /// <summary>Initializes a new instance with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The inner exception.</param>
    public CompactFormatException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}

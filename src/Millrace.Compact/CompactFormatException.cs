namespace Millrace.Compact;

/// <summary>
/// The one exception every compact reader throws for malformed input: a <see cref="MillraceException"/> whose
/// <see cref="MillraceException.Error"/> says what (a code from <see cref="CompactErrorCodes"/>), where (the byte
/// offset, in the frame or in its body as the message says, and the field path such as <c>owner.tags[2]</c>) and why.
/// </summary>
public sealed class CompactFormatException : LocatedFormatException
{
    /// <summary>Initializes a new instance.</summary>
    /// <param name="code">A code from <see cref="CompactErrorCodes"/>.</param>
    /// <param name="reason">Why the input is rejected.</param>
    /// <param name="byteOffset">The offset of the offending byte.</param>
    public CompactFormatException(string code, string reason, long byteOffset)
        : base(code, reason, byteOffset)
    {
    }

    /// <summary>Initializes a new instance with the general code <see cref="CompactErrorCodes.Format"/>.</summary>
    /// <param name="reason">Why the input is rejected.</param>
    /// <param name="byteOffset">The offset of the offending byte.</param>
    public CompactFormatException(string reason, long byteOffset)
        : this(CompactErrorCodes.Format, reason, byteOffset)
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
        : base(CompactErrorCodes.Format, message, innerException)
    {
    }
}

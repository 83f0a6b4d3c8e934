namespace Millrace;

/// <summary>
/// The base of the format exceptions Millrace's binary readers throw: why the input was rejected, the byte offset
/// of the offending byte, and the member or tag path, which readers build innermost first as the exception passes
/// up through their containers.
/// </summary>
public abstract class LocatedFormatException : FormatException
{
    private readonly ErrorPath _path = new();

    /// <summary>Initializes a new instance.</summary>
    /// <param name="reason">Why the input is rejected.</param>
    /// <param name="byteOffset">The offset of the offending byte.</param>
    protected LocatedFormatException(string reason, long byteOffset)
        : base(reason)
    {
        Reason = reason;
        ByteOffset = byteOffset;
    }

    /// <summary>Initializes a new instance with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The inner exception.</param>
    protected LocatedFormatException(string message, Exception innerException)
        : base(message, innerException)
    {
        Reason = message;
    }

    /// <summary>Gets why the input is rejected, without the location.</summary>
    public string Reason { get; }

    /// <summary>Gets the offset of the offending byte.</summary>
    public long ByteOffset { get; }

    /// <summary>Gets the member or tag path, outermost first: names joined by dots, indices in brackets.</summary>
    public string Path => _path.ToString();

    /// <inheritdoc />
    public override string Message => ErrorPath.Describe(Reason, ByteOffset, _path);

    /// <summary>Adds the segment of an enclosing container as the exception passes up through a reader.</summary>
    /// <param name="segment">A name, or an index as <c>[3]</c>.</param>
    public void PrependPath(string segment) => _path.Prepend(segment);
}

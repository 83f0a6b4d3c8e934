namespace Millrace.Nbt;

/// <summary>
/// The one exception every NBT reader throws for malformed input: it says where (the byte offset in the
/// uncompressed payload, and the tag path such as <c>Level.Sections[3].BlockStates</c>) and why.
/// </summary>
public sealed class NbtFormatException : FormatException
{
    private readonly ErrorPath _path = new();

    /// <summary>Initializes a new instance.</summary>
    /// <param name="reason">Why the input is malformed.</param>
    /// <param name="byteOffset">The offset of the offending byte.</param>
    public NbtFormatException(string reason, long byteOffset)
        : base(reason)
    {
        Reason = reason;
        ByteOffset = byteOffset;
    }

    /// <summary>Initializes a new instance.</summary>
    public NbtFormatException()
        : this("The NBT input is malformed.", 0)
    {
    }

    /// <summary>Initializes a new instance with a message.</summary>
    /// <param name="message">The message.</param>
    public NbtFormatException(string message)
        : this(message, 0)
    {
    }

    /// <summary>Initializes a new instance with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The inner exception.</param>
    public NbtFormatException(string message, Exception innerException)
        : base(message, innerException)
    {
        Reason = message;
    }

    /// <summary>Gets why the input is malformed, without the location.</summary>
    public string Reason { get; }

    /// <summary>Gets the offset of the offending byte in the uncompressed payload (or character in SNBT text).</summary>
    public long ByteOffset { get; }

    /// <summary>Gets the path of the tag being read, outermost first: names joined by dots, list indices in brackets.</summary>
    public string Path => _path.ToString();

    /// <inheritdoc />
    public override string Message => ErrorPath.Describe(Reason, ByteOffset, _path);

    internal void Prepend(string segment) => _path.Prepend(segment);
}

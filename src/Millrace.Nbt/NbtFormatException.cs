namespace Millrace.Nbt;

/// <summary>
/// The one exception every NBT reader throws for malformed input: a <see cref="MillraceException"/> whose
/// <see cref="MillraceException.Error"/> says what (a code from <see cref="NbtErrorCodes"/>), where (the byte offset,
/// counting decompressed bytes when the input was compressed, and the tag path such as
/// <c>Level.Sections[3].BlockStates</c>) and why.
/// </summary>
public sealed class NbtFormatException : LocatedFormatException
{
    /// <summary>Initializes a new instance.</summary>
    /// <param name="code">A code from <see cref="NbtErrorCodes"/>.</param>
    /// <param name="reason">Why the input is rejected.</param>
    /// <param name="byteOffset">The offset of the offending byte.</param>
    public NbtFormatException(string code, string reason, long byteOffset)
        : base(code, reason, byteOffset)
    {
    }

    /// <summary>Initializes a new instance with the general code <see cref="NbtErrorCodes.Format"/>.</summary>
    /// <param name="reason">Why the input is rejected.</param>
    /// <param name="byteOffset">The offset of the offending byte.</param>
    public NbtFormatException(string reason, long byteOffset)
        : this(NbtErrorCodes.Format, reason, byteOffset)
    {
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
        : base(NbtErrorCodes.Format, message, innerException)
    {
    }
}

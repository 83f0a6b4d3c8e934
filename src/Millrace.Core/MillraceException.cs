namespace Millrace;

/// <summary>
/// The exception Millrace throws for bad input. It carries an <see cref="Millrace.Error"/>, so callers that
/// catch it learn the same code, item index, byte offset and path that a failed <see cref="Result{T}"/> reports.
/// Module-specific format exceptions derive from it.
/// </summary>
public class MillraceException : Exception
{
    /// <summary>Initializes a new instance with a generic error.</summary>
    public MillraceException()
        : this(new Error("millrace.error", "A Millrace operation failed."))
    {
    }

    /// <summary>Initializes a new instance with a message and a generic code.</summary>
    /// <param name="message">The explanation.</param>
    public MillraceException(string message)
        : this(new Error("millrace.error", message))
    {
    }

    /// <summary>Initializes a new instance with a message, a generic code and the exception that caused it.</summary>
    /// <param name="message">The explanation.</param>
    /// <param name="innerException">The cause.</param>
    public MillraceException(string message, Exception? innerException)
        : this(new Error("millrace.error", message) { Exception = innerException })
    {
    }

    /// <summary>Initializes a new instance that carries <paramref name="error"/>.</summary>
    /// <param name="error">What went wrong and where.</param>
    public MillraceException(Error error)
        : base((error ?? throw new ArgumentNullException(nameof(error))).ToString(), error.Exception)
    {
        Error = error;
    }

    /// <summary>Gets what went wrong and where.</summary>
    public Error Error { get; }

    /// <summary>Gets the zero-based byte offset in the input at which the problem was found, when known.</summary>
    public long? ByteOffset => Error.ByteOffset;

    /// <summary>Gets the member or tag path at which the problem was found, when known.</summary>
    public string? Path => Error.Path;
}

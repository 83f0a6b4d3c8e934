namespace Millrace;

/// <summary>
/// The exception Millrace throws for bad input. It carries an <see cref="Millrace.Error"/>, so callers that
/// catch it learn the same code, item index, byte offset and path that a failed <see cref="Result{T}"/> reports.
/// The format readers' exceptions (<see cref="LocatedFormatException"/>: NBT's and the compact format's) derive from it,
/// so one <c>catch (MillraceException e)</c> and one <c>e.Error</c> serve every module.
/// </summary>
public class MillraceException : Exception
{
    private readonly Error _error;

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
        _error = error;
    }

    /// <summary>Gets what went wrong and where.</summary>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1716:Identifiers should not match keywords", Justification = "Error is the name C# users expect beside Result<T>; VB callers can qualify it.")]
    public virtual Error Error => _error;
}

namespace Millrace.Cli;

/// <summary>
/// The tool's own failures (an output it will not write, an input it will not read, a cluster it cannot reach), as the
/// libraries report theirs: a <see cref="MillraceException"/> carrying its <see cref="Error"/>, with one of
/// <see cref="CliErrorCodes"/>.
/// </summary>
/// <param name="error">What went wrong.</param>
internal sealed class CliException(Error error) : MillraceException(error)
{
    /// <summary>Initializes a new instance with a code and a message.</summary>
    /// <param name="code">One of <see cref="CliErrorCodes"/>.</param>
    /// <param name="message">What went wrong, in the user's words.</param>
    public CliException(string code, string message)
        : this(new Error(code, message))
    {
    }
}

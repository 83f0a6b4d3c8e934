namespace Millrace.Cli;

/// <summary>
/// The one place the tool turns a failure into the <see cref="Error"/> it prints and the exit code it returns: every
/// verb, the batch report and the command line's last resort go through it, so the same failure reads the same wherever
/// it happens, in this process or on a silo.
/// </summary>
internal static class CliErrors
{
    /// <summary>The error a failure is reported as; <see langword="null"/> for an exception that is a bug, not bad input.</summary>
    public static Error? From(Exception exception) => exception switch
    {
        // Every library's exception carries its Error (code, reason, absolute offset and what it counts, path); so do the tool's own (CliException).
        MillraceException millrace => millrace.Error,
        FileNotFoundException or DirectoryNotFoundException => new Error(CliErrorCodes.Open, exception.Message),
        IOException or UnauthorizedAccessException => new Error(CliErrorCodes.Io, exception.Message),

        // A writer refusing a value its format cannot carry (an over-long string, an unpaired surrogate in UTF-8).
        // Its message without the parameter's name, which is the library's, not the user's.
        ArgumentException { ParamName: { } name } argument => new Error(CliErrorCodes.Convert, argument.Message.Replace($" (Parameter '{name}')", string.Empty, StringComparison.Ordinal)),
        ArgumentException argument => new Error(CliErrorCodes.Convert, argument.Message),
#if MILLRACE_CLUSTER

        // Orleans' own failures, as ClusterJobs passes them on once its retries give up (no silo at the gateway, a silo gone
        // for too long): their first line says which.
        Orleans.Runtime.OrleansException or Orleans.Runtime.Messaging.ConnectionFailedException or TimeoutException => new Error(CliErrorCodes.Cluster, FirstLine(exception.Message)),
#endif
        _ => null,
    };

    /// <summary>The error a failure is reported as, a bug's included (<see cref="CliErrorCodes.Unexpected"/>).</summary>
    public static Error Describe(Exception exception) => From(exception) ?? new Error(CliErrorCodes.Unexpected, exception.Message);

    /// <summary>
    /// The exit code of a run that reported <paramref name="error"/>: <see cref="ExitCodes.BadInput"/> for every error
    /// but one in the command line's own text (a <c>--where</c> query, <see cref="Millrace.Nbt.NbtErrorCodes.Query"/>), which is a
    /// usage error, <see cref="ExitCodes.Usage"/>, as the parser's own are (those carry no code).
    /// </summary>
    public static int ExitCodeOf(Error error)
    {
        ArgumentNullException.ThrowIfNull(error);
        return error.Code == Millrace.Nbt.NbtErrorCodes.Query ? ExitCodes.Usage : ExitCodes.BadInput;
    }

#if MILLRACE_CLUSTER
    private static string FirstLine(string message) => message.Split('\n', 2)[0].TrimEnd();
#endif
}

namespace Millrace.Cli;

/// <summary>
/// The one place the tool turns a failure into the <see cref="Error"/> it prints: every verb and the batch report
/// through it, so the same failure reads the same wherever it happens.
/// </summary>
internal static class CliErrors
{
    /// <summary>The error a failure is reported as; <see langword="null"/> for an exception that is a bug, not bad input.</summary>
    public static Error? From(Exception exception) => exception switch
    {
        // Every reader's exception carries its Error: code, reason, absolute offset (and what it counts), path.
        MillraceException millrace => millrace.Error,
        CliOutputException output => new Error("io.output", output.Message),
        FileNotFoundException or DirectoryNotFoundException => new Error("io.open", exception.Message),
        IOException or UnauthorizedAccessException => new Error("io", exception.Message),

        // A writer refusing a value its format cannot carry (an over-long string, an unpaired surrogate in UTF-8).
        // Its message without the parameter's name, which is the library's, not the user's.
        ArgumentException { ParamName: { } name } argument => new Error("convert", argument.Message.Replace($" (Parameter '{name}')", string.Empty, StringComparison.Ordinal)),
        ArgumentException argument => new Error("convert", argument.Message),
#if MILLRACE_CLUSTER

        // The cluster could not be reached or answered with a failure (no silo at the gateway, a silo gone for too long):
        // its first line says which.
        Orleans.Runtime.OrleansException or Orleans.Runtime.Messaging.ConnectionFailedException or TimeoutException => new Error("cluster", FirstLine(exception.Message)),
#endif
        _ => null,
    };

#if MILLRACE_CLUSTER
    private static string FirstLine(string message) => message.Split('\n', 2)[0].TrimEnd();
#endif
}

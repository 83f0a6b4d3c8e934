using System.CommandLine;
using Millrace.Cli.Batch;
using Millrace.Cli.Cluster;
using Millrace.Cli.Compact;
using Millrace.Cli.Json;
using Millrace.Cli.Nbt;
using Millrace.Cli.Worlds;

namespace Millrace.Cli;

/// <summary>The <c>millrace</c> command line: parses arguments, runs the verb, and maps failures to exit codes.</summary>
public static class MillraceCli
{
    /// <summary>Runs the command line.</summary>
    /// <param name="args">The arguments, without the program name.</param>
    /// <param name="console">Where to read and write.</param>
    /// <param name="cancellationToken">Stops the command.</param>
    /// <returns>An exit code from <see cref="ExitCodes"/>.</returns>
    public static async Task<int> RunAsync(string[] args, CliConsole console, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(console);
        var parsed = CreateRootCommand(console).Parse(args);
        var output = console.CreateTextOutput();
        try
        {
            return await RunAsync(parsed, console, output, cancellationToken);
        }
        finally
        {
            try
            {
                await output.DisposeAsync();
            }
            catch (OutputClosedException)
            {
                // The reader left as a run that had already failed or been stopped wrote its last text: its code stands.
            }
        }
    }

    private static async Task<int> RunAsync(ParseResult parsed, CliConsole console, StreamWriter output, CancellationToken cancellationToken)
    {
        if (parsed.Errors.Count > 0)
        {
            // One line per problem, the pointer to the help on the last one: a failure is one line of standard error.
            for (var i = 0; i < parsed.Errors.Count; i++)
            {
                var hint = i == parsed.Errors.Count - 1 ? " Run 'millrace --help' for usage." : string.Empty;
                await console.Error.WriteLineAsync($"millrace: {OneLine(parsed.Errors[i].Message).TrimEnd('.')}.{hint}");
            }

            return ExitCodes.Usage;
        }

        // The tool handles SIGINT and SIGTERM itself (Program.cs), so it knows which one stopped it; System.CommandLine must not race it.
        var invocation = new InvocationConfiguration { Output = output, Error = console.Error, EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null };
        try
        {
            var exitCode = await parsed.InvokeAsync(invocation, cancellationToken);

            // What is still buffered (the help, a short listing) is written here, where a reader gone is caught, not when
            // the writer is disposed; whether or not the run was stopped, what it printed is written.
            await output.FlushAsync(CancellationToken.None);

            // A verb that met the closed output in work it reports per item still ends as the reader's leaving does.
            return console.Output is StandardOutput { ReaderGone: true } ? ExitCodes.OutputClosed : exitCode;
        }
        catch (OutputClosedException)
        {
            return ExitCodes.OutputClosed;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            await console.Error.WriteLineAsync("millrace: cancelled");
            return ExitCodes.Interrupted;
        }
        catch (Exception exception) when (CliErrors.From(exception) is { } error)
        {
            // A failure a verb did not report itself still gets its one line, never a stack trace.
            await console.Error.WriteLineAsync($"millrace: {error}");
            return ExitCodes.BadInput;
        }
    }

    /// <summary>
    /// A parser message on one line: System.CommandLine lists a choice's allowed values one a line ("Must be one of:",
    /// then a tab and a value on each), which would make one problem several lines of standard error.
    /// </summary>
    private static string OneLine(string message)
    {
        var lines = message.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return lines.Length <= 1 ? message.Trim() : $"{lines[0]} {string.Join(", ", lines[1..])}";
    }

    /// <summary>Builds the command tree, for running it and for checking that documented command lines parse.</summary>
    /// <param name="console">Where the verbs read and write.</param>
    /// <returns>The root command.</returns>
    internal static RootCommand CreateRootCommand(CliConsole console) => new("Millrace: fast, allocation-lean serialization and parallel data processing.")
    {
        JsonCommands.Create(console),
        NbtCommands.Create(console),
        WorldCommands.Create(console),
        CompactCommands.Create(console),
        BatchCommands.Create(console),
        ClusterCommands.Create(console),
    };
}

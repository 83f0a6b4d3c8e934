using System.Text;
using Spectre.Console;

namespace Millrace.Cli;

/// <summary>Where a command reads and writes; the process's own streams, or in-memory ones in tests.</summary>
/// <param name="Input">Standard input, read for the file name <c>-</c>.</param>
/// <param name="Output">Standard output, written as UTF-8 bytes.</param>
/// <param name="Error">Standard error, for diagnostics.</param>
public sealed record CliConsole(Stream Input, Stream Output, TextWriter Error)
{
    /// <summary>Gets the process's standard streams.</summary>
    public static CliConsole System => new(Console.OpenStandardInput(), StandardOutput.Open(), Console.Error)
    {
        IsTerminal = !Console.IsErrorRedirected,
        IsOutputTerminal = !Console.IsOutputRedirected,
    };

    /// <summary>Gets whether <see cref="Error"/> is a terminal, where progress may be redrawn in place.</summary>
    public bool IsTerminal { get; init; }

    /// <summary>
    /// Gets a value indicating whether standard output is a terminal: tables are drawn for a person there, and plain,
    /// parseable lines are written everywhere else.
    /// </summary>
    public bool IsOutputTerminal { get; init; }

    /// <summary>Creates a Spectre.Console renderer over standard output, for the tables and trees a person reads.</summary>
    /// <returns>A console that writes to <see cref="Output"/>.</returns>
    internal IAnsiConsole CreateRichOutput(TextWriter writer) => AnsiConsole.Create(new AnsiConsoleSettings
    {
        Out = new AnsiConsoleOutput(writer),
        Ansi = IsOutputTerminal ? AnsiSupport.Detect : AnsiSupport.No,
        ColorSystem = IsOutputTerminal ? ColorSystemSupport.Detect : ColorSystemSupport.NoColors,
        Interactive = InteractionSupport.No,
    });

    /// <summary>Creates a text writer over <see cref="Output"/> that leaves it open.</summary>
    /// <returns>A UTF-8 writer without a byte order mark.</returns>
    public StreamWriter CreateTextOutput() => new(Output, new UTF8Encoding(false), bufferSize: 4096, leaveOpen: true);

    /// <summary>Writes <c>millrace: {file}: {error}</c> to standard error, on one line.</summary>
    /// <param name="file">The file the error is about, <c>-</c> for standard input.</param>
    /// <param name="error">What went wrong and where.</param>
    public void ReportError(string file, Millrace.Error error) => Error.WriteLine(OneLine($"millrace: {file}: {error}"));

    // A failure is one line: a name or a file name that holds a line feed, an escape or another control character (or a
    // line separator) is written with it as \uXXXX, so it neither breaks the line nor drives the terminal.
    private static string OneLine(string text)
    {
        if (!text.Any(BreaksLine))
        {
            return text;
        }

        var line = new StringBuilder(text.Length + 16);
        foreach (var c in text)
        {
            line.Append(BreaksLine(c) ? $"\\u{(int)c:X4}" : c.ToString());
        }

        return line.ToString();

        static bool BreaksLine(char c) => char.IsControl(c) || c is '\u2028' or '\u2029';
    }

    /// <summary>Reports a failure the way every verb does (see <see cref="CliErrors"/>).</summary>
    /// <param name="file">The file the failure is about.</param>
    /// <param name="exception">The failure: bad input or an I/O error.</param>
    internal void Report(string file, Exception exception) =>
        ReportError(file, CliErrors.Describe(exception));
}

using System.Text;

namespace Millrace.Cli.Tests;

/// <summary>Runs the command line in-process with in-memory standard streams.</summary>
internal sealed record CliRun(int ExitCode, string Output, string Error)
{
    public static string Sample(string name) => Path.Combine(AppContext.BaseDirectory, "samples", name);

    public static Task<CliRun> InvokeWithInput(string input, params string[] args) => Run(input, args, CancellationToken.None);

    /// <summary>Runs the command line until it ends or <paramref name="interrupt"/> stops it, as Ctrl+C does.</summary>
    public static Task<CliRun> InvokeUntil(CancellationToken interrupt, params string[] args) => Run("", args, interrupt);

    private static async Task<CliRun> Run(string input, string[] args, CancellationToken interrupt)
    {
        var output = new MemoryStream();
        var error = new StringWriter();
        var console = new CliConsole(new MemoryStream(Encoding.UTF8.GetBytes(input)), output, error);
        var exitCode = await MillraceCli.RunAsync(args, console, interrupt);
        return new CliRun(exitCode, Encoding.UTF8.GetString(output.ToArray()), error.ToString());
    }

    public static Task<CliRun> Invoke(params string[] args) => InvokeWithInput("", args);
}

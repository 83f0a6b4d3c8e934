namespace Millrace.Cli;

/// <summary>The tool's exit codes.</summary>
public static class ExitCodes
{
    /// <summary>Everything worked.</summary>
    public const int Success = 0;

    /// <summary>An input was bad, or an output could not be written: each failure is one line on standard error.</summary>
    public const int BadInput = 1;

    /// <summary>The command line is wrong: an unknown verb or option, a bad option value.</summary>
    public const int Usage = 2;

    /// <summary>Stopped by SIGINT (Ctrl+C): 128 + 2, as shells report it.</summary>
    public const int Interrupted = 130;

    /// <summary>Stopped by SIGTERM: 128 + 15.</summary>
    public const int Terminated = 143;

    /// <summary>Stopped because standard output's reader went away (<c>| head</c>): 128 + 13, as shells report a tool
    /// that SIGPIPE ended, with nothing on standard error.</summary>
    public const int OutputClosed = 141;
}

namespace Millrace.Cli;

/// <summary>The exit codes of the <c>millrace</c> command.</summary>
public static class ExitCodes
{
    /// <summary>Everything worked.</summary>
    public const int Success = 0;

    /// <summary>The input was bad (malformed, missing or unreadable); stderr says which file, where and why.</summary>
    public const int BadInput = 1;

    /// <summary>The command line itself was wrong.</summary>
    public const int Usage = 2;
}

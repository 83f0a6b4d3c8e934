namespace Millrace.Cli;

/// <summary>An output path the tool will not write: a folder, a special file, or one whose folder is missing.</summary>
internal sealed class CliOutputException(string message) : IOException(message);

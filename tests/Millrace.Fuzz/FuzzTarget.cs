namespace Millrace.Fuzz;

/// <summary>One reader under fuzz: what it does with an input, and the seeds it starts from.</summary>
/// <param name="Name">The name to run it by.</param>
/// <param name="Run">Reads one input; any exception but the library's own is a finding.</param>
/// <param name="Seeds">Valid inputs to mutate.</param>
internal sealed record FuzzTarget(string Name, Action<byte[]> Run, Func<IEnumerable<byte[]>> Seeds)
{
    /// <summary>Whether an exception is one the library documents for bad input.</summary>
    public static bool IsExpected(Exception exception) => exception is LocatedFormatException or MillraceException;
}

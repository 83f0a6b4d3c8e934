using System.CommandLine;
#if MILLRACE_CLUSTER
using System.Globalization;
#endif

namespace Millrace.Cli.Cluster;

/// <summary>
/// The options every verb that can run on a cluster takes (<c>--cluster</c>, <c>--job</c>, <c>--cancel-on-interrupt</c>),
/// and their reading into a submission: one definition, so <c>batch convert</c> and the world verbs say the same.
/// </summary>
/// <param name="prefix">The job name's prefix when none is given (<c>batch</c>, <c>world</c>).</param>
internal sealed class ClusterJobArguments(string prefix)
{
    public Option<string?> Cluster { get; } = new("--cluster") { Description = "Run on a cluster of 'millrace cluster silo' processes, found at a silo's gateway HOST:PORT or through their Redis, redis://HOST:PORT; the paths must be ones every silo sees." };

    public Option<string?> Job { get; } = new("--job") { Description = "With --cluster: the job's name (default: the verb and the time); the same name again re-attaches to the job." };

    public Option<bool> CancelOnInterrupt { get; } = new("--cancel-on-interrupt") { Description = "With --cluster: Ctrl+C cancels the job; without it, Ctrl+C detaches and the job goes on." };

    /// <summary>Adds the options to a command.</summary>
    public void AddTo(Command command)
    {
        command.Add(Cluster);
        command.Add(Job);
        command.Add(CancelOnInterrupt);
    }

#if MILLRACE_CLUSTER
    /// <summary>
    /// Reads the submission: <see langword="null"/> without <c>--cluster</c>; a usage error (printed, exit 2 for the
    /// caller) for an address that is not one.
    /// </summary>
    public async Task<(bool Valid, ClusterSubmission? Submission)> ReadAsync(ParseResult parsed, CliConsole console, int retries = 0, int? ratePerSecond = null)
    {
        if (parsed.GetValue(Cluster) is not { } text)
        {
            return (true, null);
        }

        if (ClusterConnection.ParseAddress(text) is not { } address)
        {
            await console.Error.WriteLineAsync($"millrace: --cluster must be HOST:PORT (a silo's gateway; HOST an IP address or a name this machine resolves) or redis://HOST:PORT, not '{text}'.");
            return (false, null);
        }

        var name = parsed.GetValue(Job) ?? string.Create(CultureInfo.InvariantCulture, $"{prefix}-{DateTime.UtcNow:yyyyMMdd-HHmmss}-{Environment.ProcessId}");
        return (true, new ClusterSubmission(address, text, name, retries, ratePerSecond, parsed.GetValue(CancelOnInterrupt)));
    }
#else
    /// <summary>Refuses <c>--cluster</c> in a build without cluster support.</summary>
    public async Task<(bool Valid, object? Submission)> ReadAsync(ParseResult parsed, CliConsole console, int retries = 0, int? ratePerSecond = null)
    {
        _ = (prefix, retries, ratePerSecond);
        if (parsed.GetValue(Cluster) is null)
        {
            return (true, null);
        }

        await console.Error.WriteLineAsync(ClusterCommands.NotInThisBuild);
        return (false, null);
    }
#endif
}

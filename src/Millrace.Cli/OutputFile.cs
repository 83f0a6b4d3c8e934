using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace Millrace.Cli;

/// <summary>
/// The one way the tool writes an output: to a temporary file in the same folder, flushed to disk, then renamed over
/// the target, so a reader never sees half a file and a failure leaves the old one. <c>-</c> is standard output. Only
/// a regular file or a new path is written: a folder, device, pipe or socket is refused, never replaced. Temporary files
/// are named <c>.NAME.PID@HOST.millrace.tmp</c>, so a later run on the same machine recognizes one whose process is gone
/// and removes it; one of another machine's (silos writing to shared storage) is never judged from here.
/// </summary>
internal static partial class OutputFile
{
    private const string TemporarySuffix = ".millrace.tmp";

    /// <summary>This machine's name as it stands in a temporary file's name: letters, digits, '-' and '_' only.</summary>
    internal static readonly string ThisHost = string.Concat(Environment.MachineName.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? c : '_'));

    /// <summary>Writes <paramref name="bytes"/> to <paramref name="path"/>, reporting a failure in one line.</summary>
    /// <returns><see langword="true"/> when written.</returns>
    public static Task<bool> TryWriteAsync(string path, ReadOnlyMemory<byte> bytes, CliConsole console, CancellationToken cancellationToken) =>
        TryWriteAsync(path, stream => stream.Write(bytes.Span), path, console, cancellationToken);

    /// <summary>
    /// Writes to <paramref name="path"/> what <paramref name="write"/> produces, as it produces it, reporting a failure in
    /// one line: the output's (an output refused, a write that failed) against <paramref name="path"/>, and the
    /// producer's (a value the output format cannot carry) against <paramref name="input"/>, the file it came from.
    /// </summary>
    /// <returns><see langword="true"/> when written.</returns>
    public static async Task<bool> TryWriteAsync(string path, Action<Stream> write, string input, CliConsole console, CancellationToken cancellationToken)
    {
        try
        {
            await WriteAsync(path, write, console, cancellationToken);
            return true;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or CliException)
        {
            console.Report(path, exception);
        }
        catch (Exception exception) when (exception is ArgumentException or MillraceException)
        {
            console.Report(input, exception);
        }

        return false;
    }

    /// <summary>
    /// Writes to <paramref name="path"/> what <paramref name="write"/> produces, as it produces it: into a temporary file
    /// that replaces the target only when all of it is written, so a failure part-way (the producer's or the disk's)
    /// leaves the target as it was and no temporary file behind. For <c>-</c>, to standard output after a first pass to
    /// nowhere: standard output cannot be taken back, so a value the format refuses is met before anything is printed
    /// (the work twice, the memory once).
    /// </summary>
    /// <exception cref="CliException">The path is a folder or a special file, or its folder does not exist.</exception>
    /// <exception cref="IOException">The write failed.</exception>
    public static async Task WriteAsync(string path, Action<Stream> write, CliConsole console, CancellationToken cancellationToken)
    {
        if (path == "-")
        {
            write(Stream.Null);
            write(console.Output);
            await console.Output.FlushAsync(cancellationToken);
            return;
        }

        var target = Resolve(path);
        var directory = Path.GetDirectoryName(target)!;
        RemoveAbandoned(directory, Path.GetFileName(target));
        var temporary = Path.Combine(directory, string.Create(CultureInfo.InvariantCulture, $".{Path.GetFileName(target)}.{Environment.ProcessId}@{ThisHost}{TemporarySuffix}"));
        try
        {
            await using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 64 * 1024))
            {
                cancellationToken.ThrowIfCancellationRequested();
                write(stream);

                // On disk before the rename, so a crash after it cannot leave a renamed but empty file.
                stream.Flush(flushToDisk: true);
            }

            cancellationToken.ThrowIfCancellationRequested();
            if (!OperatingSystem.IsWindows() && File.Exists(target))
            {
                // A file replaced keeps its permissions (a private 600 world stays private); its owner is the writer's.
                File.SetUnixFileMode(temporary, File.GetUnixFileMode(target));
            }

            File.Move(temporary, target, overwrite: true);
        }
        finally
        {
            File.Delete(temporary);
        }
    }

    /// <summary>Removes the temporary files of runs that died (killed, or lost power) from a folder and those below it.</summary>
    public static void RemoveAbandonedBelow(string directory)
    {
        if (!Directory.Exists(directory))
        {
            return;
        }

        foreach (var file in Directory.EnumerateFiles(directory, "*.tmp", SearchOption.AllDirectories))
        {
            if (IsAbandoned(Path.GetFileName(file)))
            {
                TryDelete(file);
            }
        }
    }

    /// <summary>The file a path names once its links are followed (the path itself when it is not a link): what a write
    /// through the path replaces.</summary>
    public static string FinalTarget(string path) =>
        File.Exists(path) && new FileInfo(path).LinkTarget is not null && File.ResolveLinkTarget(path, returnFinalTarget: true) is { } linked
            ? linked.FullName
            : path;

    private static string Resolve(string path)
    {
        var full = Path.GetFullPath(path);
        if (Directory.Exists(full))
        {
            throw new CliException(CliErrorCodes.Output, "The output is a folder; name a file.");
        }

        // A link is written through: its target is replaced, the link stays.
        full = FinalTarget(full);

        if (!Directory.Exists(Path.GetDirectoryName(full)))
        {
            throw new CliException(CliErrorCodes.Output, "The output's folder does not exist.");
        }

        if (File.Exists(full) && !FileKind.IsRegularFile(full))
        {
            throw new CliException(CliErrorCodes.Output, "The output is a device, pipe or socket, not a regular file; refusing to replace it (use - for standard output).");
        }

        return full;
    }

    private static void RemoveAbandoned(string directory, string name)
    {
        foreach (var file in Directory.EnumerateFiles(directory, $".{name}.*.tmp"))
        {
            if (IsAbandoned(Path.GetFileName(file)))
            {
                TryDelete(file);
            }
        }
    }

    private static bool IsAbandoned(string fileName)
    {
        // Three forms are recognized. .NAME.PID@HOST.millrace.tmp, the one written now, is abandoned when it is this
        // machine's and that process is gone: a PID says nothing about another machine's processes, which may be writing
        // it now. .NAME.PID.millrace.tmp, left by earlier releases, names no host and is judged as this machine's.
        // .NAME.GUID.tmp, also left by earlier releases, names no process to ask about and is always abandoned.
        if (LegacyTemporary().IsMatch(fileName))
        {
            return true;
        }

        var match = Temporary().Match(fileName);
        return match.Success
            && (!match.Groups[2].Success || match.Groups[2].ValueSpan.SequenceEqual(ThisHost))
            && int.TryParse(match.Groups[1].ValueSpan, NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
            && !IsRunning(pid);
    }

    private static bool IsRunning(int pid)
    {
        if (pid == Environment.ProcessId)
        {
            return true;
        }

        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (Exception exception) when (exception is ArgumentException or InvalidOperationException)
        {
            return false;
        }
    }

    private static void TryDelete(string file)
    {
        try
        {
            File.Delete(file);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            // Another run may be removing it too; what is left is tried again next time.
        }
    }

    [GeneratedRegex(@"^\..+\.(\d+)(?:@([A-Za-z0-9_-]+))?\.millrace\.tmp$", RegexOptions.CultureInvariant)]
    private static partial Regex Temporary();

    [GeneratedRegex(@"^\..+\.[0-9a-f]{32}\.tmp$", RegexOptions.CultureInvariant)]
    private static partial Regex LegacyTemporary();
}

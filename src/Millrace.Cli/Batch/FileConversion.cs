using Millrace.Cli.Formats;
using Millrace.Json;

namespace Millrace.Cli.Batch;

/// <summary>One file converted to another, the output written atomically: what a batch does per file, in this process or on a silo.</summary>
internal static class FileConversion
{
    /// <summary>
    /// Whether a failed conversion is worth another try: an I/O failure that may pass (a busy or briefly unreachable
    /// file), not a missing input or folder; an output the tool refuses (a <see cref="CliException"/>) and bad data fail
    /// the same way every time.
    /// </summary>
    public static bool IsTransient(Exception exception) =>
        exception is IOException and not (FileNotFoundException or DirectoryNotFoundException);

    /// <summary>Reads <paramref name="input"/>, converts it, and writes <paramref name="output"/> (its folder created).</summary>
    /// <exception cref="MillraceException">The input is bad; the error is located in it.</exception>
    /// <exception cref="IOException">A read or write failed.</exception>
    public static async Task ConvertAsync(string input, FileFormatKind format, string output, ConversionSettings settings, CliConsole console, CancellationToken cancellationToken)
    {
        // A batch converts files. A pipe, device or socket in the input folder would be drained, or would block the
        // run where no cancellation reaches (opening a pipe that has no writer).
        if (!FileKind.IsRegularFile(input))
        {
            throw new CliException(CliErrorCodes.Open, "It is a device, pipe or socket, not a regular file.");
        }

        byte[] bytes;
        await using (var stream = new FileStream(input, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan | FileOptions.Asynchronous))
        {
            bytes = await CliInput.ReadAllBytesAsync(stream, FileFormats.MaxInputBytes(format), cancellationToken);
        }

        FileValue value;
        try
        {
            value = FileFormats.Read(bytes, format, settings);
        }
        catch (System.Text.Json.JsonException exception)
        {
            // Located here, where the input is at hand: System.Text.Json counts bytes within the line only.
            throw new MillraceException(JsonText.SyntaxError(exception, bytes));
        }

        Directory.CreateDirectory(Path.GetDirectoryName(output)!);
        await OutputFile.WriteAsync(output, stream => FileFormats.Write(value, settings, stream), console, cancellationToken);
    }
}

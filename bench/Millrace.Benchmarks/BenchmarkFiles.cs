using System.Text.Json;

namespace Millrace.Benchmarks;

/// <summary>Large inputs that benchmarks read from files: written once to the temporary folder, then reused by every run.</summary>
internal static class BenchmarkFiles
{
    /// <summary>Gets the path of a JSON array of <paramref name="count"/> items, writing it first if it is not there.</summary>
    /// <param name="name">The file's name in the temporary folder; it names the data, so other data needs another name.</param>
    /// <param name="count">How many items.</param>
    /// <param name="writeItem">Writes item <c>i</c>.</param>
    /// <returns>The path.</returns>
    public static string JsonArray(string name, int count, Action<Utf8JsonWriter, int> writeItem)
    {
        var path = Path.Combine(Path.GetTempPath(), name);
        if (File.Exists(path))
        {
            return path;
        }

        // Written beside and renamed, so an interrupted run never leaves a half-written file to be reused.
        var temporary = path + ".tmp";
        using (var file = File.Create(temporary))
        using (var writer = new Utf8JsonWriter(file))
        {
            writer.WriteStartArray();
            for (var i = 0; i < count; i++)
            {
                writeItem(writer, i);
            }

            writer.WriteEndArray();
        }

        File.Move(temporary, path, overwrite: true);
        return path;
    }

    /// <summary>Opens a file for one sequential, asynchronous read, with no buffer of its own (the reader has one).</summary>
    public static FileStream OpenRead(string path) =>
        new(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan | FileOptions.Asynchronous);

    /// <summary>
    /// A folder of <c>../shared/data</c> beside the repository (game files, other projects' files), read in place: files
    /// fetched from elsewhere are not committed into the project. Found by walking up from the benchmark's output.
    /// </summary>
    /// <param name="name">The folder's name, such as <c>nbt-real</c> or <c>worlds</c>.</param>
    /// <returns>Its full path.</returns>
    public static string SharedData(string name)
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            var candidate = Path.Combine(directory.FullName, "shared", "data", name);
            if (Directory.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new DirectoryNotFoundException($"../shared/data/{name} is not there: these benchmarks read its files in place.");
    }
}

using System.Text.Json;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests;

/// <summary>
/// nst/JSONTestSuite's parsing cases (<c>../shared/data/jsontestsuite</c>): every <c>y_</c> file is read whole and every
/// <c>n_</c> file is refused, as an array root through the item readers, and as one NDJSON line when it is one line;
/// an <c>i_</c> file (either answer is allowed) gets a result or a located error, never an exception.
/// </summary>
public class JsonTestSuiteTests
{
    public static TheoryData<string> Cases()
    {
        var data = new TheoryData<string>();
        if (SharedData.Available("jsontestsuite"))
        {
            foreach (var path in Directory.EnumerateFiles(SharedData.Folder("jsontestsuite"), "*.json").Order(StringComparer.Ordinal))
            {
                data.Add(Path.GetFileName(path));
            }
        }

        return data;
    }

    [SharedDataTheory("jsontestsuite")]
    [MemberData(nameof(Cases))]
    public async Task Case_GetsTheSuitesVerdict(string name)
    {
        var bytes = await File.ReadAllBytesAsync(Path.Combine(SharedData.Folder("jsontestsuite"), name));
        var verdicts = new List<string>();
        if (IsArrayRoot(bytes))
        {
            verdicts.Add("array " + Verdict(await ReadAll(bytes, new JsonStreamOptions())));
            verdicts.Add("array, one-byte reads " + Verdict(await ReadAll(bytes, new JsonStreamOptions(), chunk: 1)));
            verdicts.Add("raw array " + Verdict(await ReadRaw(bytes, new JsonStreamOptions())));
        }

        if (!bytes.AsSpan().ContainsAny((byte)'\n', (byte)'\r'))
        {
            verdicts.Add("line " + Verdict(await ReadAll(bytes, new JsonStreamOptions { Format = JsonStreamFormat.Lines }, asOneLine: true)));
        }

        var expected = name[0] switch { 'y' => "read", 'n' => "refused", _ => null };
        foreach (var verdict in verdicts)
        {
            Assert.True(expected is null || verdict.EndsWith(expected, StringComparison.Ordinal), $"{name}: {verdict}, expected {expected}");
        }
    }

    private static string Verdict<T>(List<Result<T>> results) => results.TrueForAll(r => r.IsSuccess) ? "read" : "refused";

    private static bool IsArrayRoot(byte[] bytes)
    {
        var text = bytes.AsSpan();
        if (text.StartsWith("\uFEFF"u8))
        {
            text = text[3..];
        }

        text = text.TrimStart(" \t\r\n"u8);
        return !text.IsEmpty && text[0] == (byte)'[';
    }

    private static async Task<List<Result<JsonElement>>> ReadAll(byte[] bytes, JsonStreamOptions options, int chunk = int.MaxValue, bool asOneLine = false)
    {
        var results = new List<Result<JsonElement>>();
        await foreach (var item in JsonItems.ReadAsync(new ChunkedStream(bytes, chunk), TestJsonContext.Default.JsonElement, options))
        {
            results.Add(item);
        }

        // As NDJSON the whole line is the one value: a line of whitespace is no value, so nothing was read.
        return asOneLine && results.Count != 1 ? [.. results, Result<JsonElement>.Failure(new Error("test.lines", "not one value"))] : results;
    }

    private static async Task<List<Result<JsonRawItem>>> ReadRaw(byte[] bytes, JsonStreamOptions options)
    {
        var results = new List<Result<JsonRawItem>>();
        await foreach (var item in JsonItems.ReadRawAsync(new MemoryStream(bytes), options))
        {
            results.Add(item);
        }

        return results;
    }
}

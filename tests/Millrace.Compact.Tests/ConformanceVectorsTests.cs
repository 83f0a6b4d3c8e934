using System.Diagnostics;
using System.Text.Json.Nodes;
using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

/// <summary>
/// tests/compact-vectors/vectors-v1.json, the format's conformance vectors, against this implementation (every value
/// decoded, every canonical one encoded to the same bytes, every refusal with its code, offset and path) and against the
/// second reader beside them, written in Python from the spec alone.
/// </summary>
public class ConformanceVectorsTests
{
    private static readonly string Folder = Path.Combine(RepositoryRoot.Path, "tests", "compact-vectors");

    public static TheoryData<string> Names() => [.. Vectors().Select(v => v["name"]!.GetValue<string>())];

    [Theory]
    [MemberData(nameof(Names))]
    public void EveryVector_IsReadAndWrittenAsItSays(string name)
    {
        var document = Document();
        var schema = CompactSchemaSet.Parse(document["schema"]!.ToJsonString());
        var vector = Vectors().Single(v => v["name"]!.GetValue<string>() == name);
        var frame = Convert.FromHexString(vector["hex"]!.GetValue<string>());
        var limits = LimitsOf(vector);
        if (vector["error"] is { } error)
        {
            var refused = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(schema, frame, limits));
            Assert.Equal(error["code"]!.GetValue<string>(), refused.Code);
            Assert.Equal(error["offset"]!.GetValue<long>(), refused.ByteOffset);
            Assert.Equal(error["path"]?.GetValue<string>() ?? string.Empty, refused.Path);
            return;
        }

        var value = vector["value"]!;
        var decoded = CompactTestSupport.Decode(schema, frame, limits);
        Assert.True(JsonNode.DeepEquals(value, JsonNode.Parse(decoded)), $"{name} decodes to {decoded}");
        if (vector["canonical"]!.GetValue<bool>())
        {
            Assert.Equal(vector["hex"]!.GetValue<string>(), Convert.ToHexStringLower(CompactTestSupport.Encode(schema, vector["type"]!.GetValue<string>(), value.ToJsonString())));
        }
    }

    [Fact]
    public void TheSecondReader_WrittenFromTheSpec_AgreesWithEveryVector()
    {
        var start = new ProcessStartInfo("python3", [Path.Combine(Folder, "reader.py")]) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var python = Process.Start(start)!;
        var output = python.StandardOutput.ReadToEnd() + python.StandardError.ReadToEnd();
        Assert.True(python.WaitForExit(TimeSpan.FromSeconds(60)), "the reader did not end within a minute");
        Assert.True(python.ExitCode == 0, output);
        // It skips the Brotli and zstd frames (flags 2 and 3): Python's standard library has neither codec.
        var ran = Vectors().Count(v => (Convert.FromHexString(v["hex"]!.GetValue<string>()) is { Length: > 1 } frame ? frame[1] & 3 : 0) is not (2 or 3));
        Assert.Contains($"{ran} of {ran} vectors agree", output, StringComparison.Ordinal);
    }

    /// <summary>A vector's limits: its <c>limits</c> member over the defaults; null when it has none.</summary>
    internal static CompactLimits? LimitsOf(JsonNode vector) => vector["limits"] is { } given
        ? new CompactLimits
        {
            MaxDepth = given["maxDepth"]?.GetValue<int>() ?? CompactLimitsConstants.MaxDepth,
            MaxCollectionCount = given["maxCollectionCount"]?.GetValue<int>() ?? CompactLimitsConstants.MaxCollectionCount,
            MaxStringLength = given["maxStringLength"]?.GetValue<int>() ?? CompactLimitsConstants.MaxStringLength,
            MaxBodyLength = given["maxBodyLength"]?.GetValue<int>() ?? CompactLimitsConstants.MaxBodyLength,
        }
        : null;

    internal static IEnumerable<JsonNode> Vectors() => Document()["vectors"]!.AsArray().Select(v => v!);

    private static JsonNode Document() => JsonNode.Parse(File.ReadAllText(Path.Combine(Folder, "vectors-v1.json")))!;
}

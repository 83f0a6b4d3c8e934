using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

/// <summary>
/// The same bytes must give the same items and the same errors (code, offset, index, path, message) however they
/// arrive: one seekable block, small forward-only reads, small buffers, through <see cref="JsonItems.ReadAsync{T}(Stream, JsonTypeInfo{T}, JsonStreamOptions?, CancellationToken)"/>
/// or <see cref="JsonItems.ReadListAsync{T}(Stream, JsonTypeInfo{T}, JsonStreamOptions?, CancellationToken)"/>.
/// </summary>
public class JsonItemsConsistencyTests
{
    private const string Inserted = "{}[]\",:0a \n\\u#";
    private const string Replacements = "{}[]\",:1e \t-.";

    private static readonly TestJsonContext Context = TestJsonContext.Default;

    [Theory]
    [InlineData("""[{"\ud800":1}]""")]
    [InlineData("""[{"\udc00x":1},{"Id":2}]""")]
    [InlineData("""[{"Id":1,"Name":"\ud800"}]""")]
    public async Task ReadAsync_PropertyNameWithUnpairedSurrogate_IsAResultNotAnException(string json)
    {
        foreach (var chunk in new[] { 1, 4, 1 << 20 })
        {
            var people = await ReadAll(new ChunkedStream(Encoding.UTF8.GetBytes(json), chunk), Context.Person);
            Assert.All(people, item => Assert.True(item.IsSuccess || item.Error.ByteOffset is >= 0));
            var strict = await ReadAll(new ChunkedStream(Encoding.UTF8.GetBytes(json), chunk), Context.StrictPerson);
            Assert.All(strict, item => Assert.True(item.IsSuccess || item.Error.ByteOffset is >= 0));
            var dictionaries = await ReadAll(new ChunkedStream(Encoding.UTF8.GetBytes(json), chunk), Context.DictionaryStringInt32);
            Assert.All(dictionaries, item => Assert.True(item.IsSuccess || item.Error.ByteOffset is >= 0));
        }

        var list = await JsonItems.ReadListAsync(new MemoryStream(Encoding.UTF8.GetBytes(json)), Context.Person);
        Assert.True(list.IsFailure);
    }

    [Fact]
    public async Task ReadAsync_PathStepWithUnpairedSurrogate_IsAResultNotAnException()
    {
        var json = """{"\ud800":1,"a\udfff":[1],"data":[1,2]}"""u8.ToArray();
        foreach (var chunk in new[] { 1, 5, 1 << 20 })
        {
            var results = await ReadAll(new ChunkedStream(json, chunk), Context.Int32, new JsonStreamOptions { Path = "$.data" });
            Assert.Equal([1, 2], results.Select(r => r.Value));
        }
    }

    [Theory]
    [InlineData("""[{"id"::,""", 7, "json.syntax")]
    [InlineData("""[{"Id":1},{"Id":tru},{"Id":3}]""", 16, "json.syntax")]
    [InlineData("""[1,2""", 4, "json.truncated")]
    [InlineData("""["abc""", 5, "json.truncated")]
    [InlineData("[1,\n 2,\n  @]", 10, "json.syntax")]
    [InlineData("[1 2]", 3, "json.syntax")]
    public async Task ReadAsync_SyntaxError_SameCodeAndOffsetForEveryChunking(string json, long offset, string code)
    {
        var bytes = Encoding.UTF8.GetBytes(json);
        var whole = await ReadAll(new MemoryStream(bytes), Context.JsonElement);
        Assert.Equal(code, whole[^1].Error.Code);
        Assert.Equal(offset, whole[^1].Error.ByteOffset);
        for (var chunk = 1; chunk <= bytes.Length; chunk++)
        {
            var chunked = await ReadAll(new ChunkedStream(bytes, chunk), Context.JsonElement, new JsonStreamOptions { BufferSize = 16 });
            Assert.Equal(Describe(whole), Describe(chunked));
        }
    }

    [Fact]
    public async Task ReadAsync_ItemAtTheSizeLimit_SameOutcomeForEveryChunking()
    {
        // 20 bytes from the comma: the item itself fits, what a small read had buffered when it gave up did not.
        var bytes = "[1,   \"abcdefghijklmn\",2]"u8.ToArray();
        foreach (var max in new[] { 15, 16, 17, 18, 19, 20 })
        {
            var options = new JsonStreamOptions { MaxItemSize = max, BufferSize = 64 };
            var whole = Describe(await ReadAll(new MemoryStream(bytes), Context.JsonElement, options));
            for (var chunk = 1; chunk <= bytes.Length; chunk++)
            {
                var chunkedOptions = new JsonStreamOptions { MaxItemSize = max, BufferSize = 16 };
                Assert.Equal(whole, Describe(await ReadAll(new ChunkedStream(bytes, chunk), Context.JsonElement, chunkedOptions)));
            }
        }
    }

    [Fact]
    public async Task ReadAsync_WhitespaceRunLongerThanMaxItemSize_IsNotAnOversizedItem()
    {
        // Whitespace between steps is dropped as it arrives; MaxItemSize counts an item with the comma before it.
        var bytes = Encoding.UTF8.GetBytes(new string(' ', 5000) + "[1" + new string('\n', 5000) + ",2]");
        var options = new JsonStreamOptions { MaxItemSize = 64, BufferSize = 16 };
        var results = await ReadAll(new ChunkedStream(bytes, 7), Context.Int32, options);
        Assert.Equal([1, 2], results.Select(r => r.Value));
    }

    [Fact]
    public async Task ReadAsync_LineTooLong_SameOutcomeForEveryChunking()
    {
        var bytes = "1\n   12345678\n3\n"u8.ToArray();
        var options = new JsonStreamOptions { Format = JsonStreamFormat.Lines, MaxItemSize = 10, SkipInvalidLines = true, BufferSize = 64 };
        var whole = Describe(await ReadAll(new MemoryStream(bytes), Context.Int32, options));
        for (var chunk = 1; chunk <= bytes.Length; chunk++)
        {
            var chunkedOptions = new JsonStreamOptions { Format = JsonStreamFormat.Lines, MaxItemSize = 10, SkipInvalidLines = true, BufferSize = 16 };
            Assert.Equal(whole, Describe(await ReadAll(new ChunkedStream(bytes, chunk), Context.Int32, chunkedOptions)));
        }
    }

    /// <summary>
    /// Random arrays (valid, then mutated: bytes dropped, inserted, replaced, the end cut off) read whole from a seekable
    /// stream, through random read sizes and buffer sizes, and as a list: every way gives the same outcome.
    /// </summary>
    [Fact]
    public async Task ReadAsync_RandomInputAnyChunking_SameItemsAndErrors()
    {
        var random = new Random(14);
        for (var run = 0; run < 1500; run++)
        {
            var bytes = RandomInput(random);
            var path = "$";
            if (random.Next(4) == 0)
            {
                // The array under a path, after a property to skip: navigation goes through the same rules.
                var skipped = new StringBuilder("{\"meta\":");
                AppendValue(skipped, random, 0);
                bytes = Mutate(random, [.. Encoding.UTF8.GetBytes(skipped + ",\"data\":"), .. bytes, (byte)'}']);
                path = "$.data";
            }

            var maxItemSize = random.Next(3) == 0 ? random.Next(4, 80) : JsonStreamConstants.MaxItemSize;
            var maxDepth = random.Next(3) == 0 ? random.Next(1, 5) : JsonStreamConstants.MaxDepth;
            JsonStreamOptions Options(int bufferSize) => new() { Path = path, MaxItemSize = maxItemSize, MaxDepth = maxDepth, BufferSize = bufferSize };

            await AssertSameEverywhere(bytes, Context.JsonElement, Options, random);
            await AssertSameEverywhere(bytes, Context.Person, Options, random);
            switch (run % 4)
            {
                case 0:
                    await AssertSameEverywhere(bytes, Context.DictionaryStringInt32, Options, random);
                    break;
                case 1:
                    await AssertSameEverywhere(bytes, Context.ListInt32, Options, random);
                    break;
                case 2:
                    await AssertSameEverywhere(bytes, Context.String, Options, random);
                    break;
                default:
                    await AssertSameEverywhere(bytes, Context.NullableInt32, Options, random);
                    break;
            }
        }
    }

    [Fact]
    public async Task ReadAsync_RandomLinesAnyChunking_SameItemsAndErrors()
    {
        var random = new Random(1414);
        for (var run = 0; run < 500; run++)
        {
            var lines = new StringBuilder();
            for (var i = random.Next(0, 6); i > 0; i--)
            {
                lines.Append(new string(' ', random.Next(3)));
                AppendValue(lines, random, 0);
                lines.Append(random.Next(4) == 0 ? "\r\n" : "\n");
            }

            var bytes = Mutate(random, Encoding.UTF8.GetBytes(lines.ToString()));
            var maxItemSize = random.Next(2) == 0 ? random.Next(4, 40) : JsonStreamConstants.MaxItemSize;
            var skip = random.Next(2) == 0;
            JsonStreamOptions Options(int bufferSize) => new() { Format = JsonStreamFormat.Lines, SkipInvalidLines = skip, MaxItemSize = maxItemSize, BufferSize = bufferSize };
            await AssertSameEverywhere(bytes, Context.JsonElement, Options, random);
        }
    }

    private static async Task AssertSameEverywhere<T>(byte[] bytes, JsonTypeInfo<T> typeInfo, Func<int, JsonStreamOptions> options, Random random)
    {
        var expected = Describe(await ReadAll(new MemoryStream(bytes), typeInfo, options(JsonStreamConstants.BufferSize)));
        var chunk = random.Next(1, 40);
        var bufferSize = random.Next(16, 100);
        var chunked = Describe(await ReadAll(new ChunkedStream(bytes, chunk), typeInfo, options(bufferSize)));
        Assert.All(expected, line => Assert.DoesNotMatch("isFinalBlock|System\\.|Millrace\\.|LineNumber|BytePositionInLine", line));
        Assert.True(expected.SequenceEqual(chunked), $"input {Encoding.UTF8.GetString(bytes)}, chunk {chunk}, buffer {bufferSize}:\n{string.Join("\n", expected)}\nvs\n{string.Join("\n", chunked)}");

        // Binding on workers gives the same items and errors, in the same order.
        var workers = options(bufferSize);
        workers.BindingWorkers = random.Next(2, 5);
        var bound = Describe(await ReadAll(new ChunkedStream(bytes, chunk), typeInfo, workers));
        Assert.True(expected.SequenceEqual(bound), $"input {Encoding.UTF8.GetString(bytes)}, {workers.BindingWorkers} workers:\n{string.Join("\n", expected)}\nvs\n{string.Join("\n", bound)}");

        // The scanner binding every batch itself, and none, and (over an array) a worker binding a few bytes ahead of the
        // reader from every item start it guesses: each path alone gives them too.
        foreach (var scannerBindsAtWaiting in new[] { 0, int.MaxValue })
        {
            var alone = Describe(await Drain(JsonBatchEngine<T>.ReadAsync(new ChunkedStream(bytes, chunk), null, typeInfo, workers, scannerBindsAtWaiting, CancellationToken.None)));
            Assert.True(expected.SequenceEqual(alone), $"input {Encoding.UTF8.GetString(bytes)}, the scanner binding at {scannerBindsAtWaiting} waiting:\n{string.Join("\n", expected)}\nvs\n{string.Join("\n", alone)}");
        }

        if (workers.Format == JsonStreamFormat.Array)
        {
            var aheadBytes = random.Next(1, 64);
            var ahead = Describe(await Drain(JsonAheadEngine<T>.ReadAsync(new ChunkedStream(bytes, chunk), typeInfo, workers, aheadBytes, CancellationToken.None)));
            Assert.True(expected.SequenceEqual(ahead), $"input {Encoding.UTF8.GetString(bytes)}, a worker {aheadBytes} bytes ahead:\n{string.Join("\n", expected)}\nvs\n{string.Join("\n", ahead)}");
        }

        // Raw items are the items' own bytes, with the same errors: what a JsonElement holds.
        if (typeof(T) == typeof(JsonElement))
        {
            var raw = await ReadRaw(new ChunkedStream(bytes, chunk), options(bufferSize));
            Assert.True(expected.SequenceEqual(raw), $"input {Encoding.UTF8.GetString(bytes)}, raw:\n{string.Join("\n", expected)}\nvs\n{string.Join("\n", raw)}");
        }

        if (options(16).Format == JsonStreamFormat.Array)
        {
            var firstFailure = expected.FirstOrDefault(line => !line.StartsWith("ok ", StringComparison.Ordinal));
            var expectedList = firstFailure ?? "ok " + string.Join(",", expected.Select(line => line[3..]));
            Assert.Equal(expectedList, Describe(await JsonItems.ReadListAsync(new MemoryStream(bytes), typeInfo, options(JsonStreamConstants.BufferSize))));
            Assert.Equal(expectedList, Describe(await JsonItems.ReadListAsync(new ChunkedStream(bytes, chunk), typeInfo, options(bufferSize))));
            var listWorkers = options(bufferSize);
            listWorkers.BindingWorkers = 3;
            Assert.Equal(expectedList, Describe(await JsonItems.ReadListAsync(new ChunkedStream(bytes, chunk), typeInfo, listWorkers)));
        }
    }

    private static Task<List<Result<T>>> ReadAll<T>(Stream stream, JsonTypeInfo<T> typeInfo, JsonStreamOptions? options = null) =>
        Drain(JsonItems.ReadAsync(stream, typeInfo, options));

    private static async Task<List<Result<T>>> Drain<T>(IAsyncEnumerable<Result<T>> items)
    {
        var results = new List<Result<T>>();
        await foreach (var item in items)
        {
            results.Add(item);
        }

        return results;
    }

    private static async Task<List<string>> ReadRaw(Stream stream, JsonStreamOptions options)
    {
        var results = new List<string>();
        await foreach (var item in JsonItems.ReadRawAsync(stream, options))
        {
            results.Add(item.TryGetValue(out var raw) ? "ok " + Encoding.UTF8.GetString(raw.Utf8.Span) : Describe(item));
        }

        return results;
    }

    private static List<string> Describe<T>(List<Result<T>> results) => results.Select(Describe).ToList();

    private static string Describe<T>(Result<T> result) => result.TryGetValue(out var value)
        ? "ok " + Show(value)
        : $"{result.Error.Code} at {result.Error.ByteOffset} item {result.Error.ItemIndex} path {result.Error.Path}: {result.Error.Message}";

    private static string Show(object? value) => value switch
    {
        JsonElement element => element.GetRawText(),
        System.Collections.IList list => string.Join(",", list.Cast<object?>().Select(Show)),
        _ => JsonSerializer.Serialize(value, value?.GetType() ?? typeof(object), Context),
    };

    private static byte[] RandomInput(Random random)
    {
        var text = new StringBuilder(random.Next(8) == 0 ? " " : "");
        text.Append('[');
        var count = random.Next(0, 8);
        for (var i = 0; i < count; i++)
        {
            text.Append(i == 0 ? Space(random) : Space(random) + "," + Space(random));
            if (random.Next(3) == 0)
            {
                text.Append($$"""{"Id":{{random.Next(100)}},"Name":"n{{i}}","Score":1.5,"Active":true,"Tags":["t"]}""");
            }
            else
            {
                AppendValue(text, random, depth: 0);
            }
        }

        text.Append(Space(random)).Append(']').Append(Space(random));
        return Mutate(random, Encoding.UTF8.GetBytes(text.ToString()));
    }

    private static byte[] Mutate(Random random, byte[] bytes)
    {
        var list = bytes.ToList();
        for (var edits = random.Next(3) == 0 ? 0 : random.Next(1, 4); edits > 0 && list.Count > 0; edits--)
        {
            var at = random.Next(list.Count);
            switch (random.Next(4))
            {
                case 0:
                    list.RemoveAt(at);
                    break;
                case 1:
                    list.Insert(at, (byte)Inserted[random.Next(Inserted.Length)]);
                    break;
                case 2:
                    list[at] = (byte)Replacements[random.Next(Replacements.Length)];
                    break;
                default:
                    list.RemoveRange(at, list.Count - at);
                    break;
            }
        }

        return [.. list];
    }

    private static string Space(Random random) => random.Next(5) switch
    {
        0 or 1 => "",
        2 => " ",
        3 => "\n  ",
        _ => "\r\n\t",
    };

    private static void AppendValue(StringBuilder text, Random random, int depth)
    {
        switch (random.Next(depth > 2 ? 4 : 7))
        {
            case 0:
                text.Append(random.Next(-1000, 1000));
                break;
            case 1:
                text.Append("\"s").Append(new string('x', random.Next(0, 12))).Append(random.Next(4) == 0 ? "\\ud800\"" : "\"");
                break;
            case 2:
                text.Append(random.Next(2) == 0 ? "true" : "null");
                break;
            case 3:
                text.Append("[]");
                break;
            case 4:
            case 5:
                text.Append('{');
                var properties = random.Next(0, 4);
                for (var i = 0; i < properties; i++)
                {
                    var name = random.Next(3) == 0 ? "Id" : random.Next(6) == 0 ? "\\udc00" : "p" + i;
                    text.Append(i == 0 ? "" : ",").Append(Space(random)).Append('"').Append(name).Append("\":").Append(Space(random));
                    AppendValue(text, random, depth + 1);
                }

                text.Append(Space(random)).Append('}');
                break;
            default:
                text.Append('[');
                var items = random.Next(0, 4);
                for (var i = 0; i < items; i++)
                {
                    text.Append(i == 0 ? "" : ",").Append(Space(random));
                    AppendValue(text, random, depth + 1);
                }

                text.Append(']');
                break;
        }
    }
}

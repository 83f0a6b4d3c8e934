using System.Text;
using Millrace.Json.Base64;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

/// <summary>
/// Bytes that are not UTF-8 inside a string or a name (RFC 8259 says JSON text is UTF-8) get one answer on every path:
/// a <see cref="JsonErrorCodes.Encoding"/> failure at the first such byte, standing for the item it is in, and reading
/// goes on with the next item. Before, raw reading passed them on, binding a string member threw the platform's
/// InvalidOperationException, and the CLI printed U+FFFD in their place.
/// </summary>
public class InvalidUtf8Tests
{
    private static readonly TestJsonContext Context = TestJsonContext.Default;

    private static readonly byte[] Valid = """[{"Id":1,"Name":"abcd","Score":1,"Active":true,"Tags":["xy"]},{"Id":2,"Name":"ok","Score":2,"Active":false,"Tags":[]}]"""u8.ToArray();

    // Each kind of sequence UTF-8 refuses: a byte no sequence starts with, a cut sequence, an overlong form, an encoded
    // surrogate, a code point past U+10FFFF.
    private static readonly byte[][] BadSequences = [[0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]];

    public static TheoryData<int, int> Cases()
    {
        var data = new TheoryData<int, int>();
        var firstItemEnd = Encoding.UTF8.GetString(Valid).IndexOf("},{", StringComparison.Ordinal);
        var inString = false;
        for (var position = 0; position < firstItemEnd; position++)
        {
            if (Valid[position] == (byte)'"')
            {
                inString = !inString;
                continue;
            }

            if (inString)
            {
                for (var kind = 0; kind < BadSequences.Length; kind++)
                {
                    data.Add(position, kind);
                }
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task EveryArrayPath_RefusesTheItem_AtTheFirstBadByte(int position, int kind)
    {
        var bytes = Corrupt(position, kind);
        var expected = $"json.encoding at {position} item 0 path $[0]: {JsonText.NotUtf8} | ok";
        foreach (var chunk in new[] { bytes.Length, 1 })
        {
            Assert.Equal(expected, Describe(await Raw(new ChunkedStream(bytes, chunk))));
            Assert.Equal(expected, Describe(await Typed(new ChunkedStream(bytes, chunk), Context.Person)));
            Assert.Equal(expected, Describe(await Typed(new ChunkedStream(bytes, chunk), Context.JsonElement)));
            Assert.Equal(expected, Describe(await Typed(new ChunkedStream(bytes, chunk), Context.Person, new JsonStreamOptions { BufferSize = 16 })));
            Assert.Equal(expected, Describe(await Typed(new ChunkedStream(bytes, chunk), Context.Person, new JsonStreamOptions { BindingWorkers = 2 })));
        }

        // Seekable, the item-by-item reader binds in one pass, and a small document is bound whole: both are checked.
        Assert.Equal(expected, Describe(await Typed(new MemoryStream(bytes), Context.Person)));
        var list = await JsonItems.ReadListAsync(new MemoryStream(bytes), Context.Person);
        Assert.True(list.IsFailure);
        Assert.Equal($"json.encoding at {position} item 0 path $[0]: {JsonText.NotUtf8}", Describe<int>([Result<int>.Failure(list.Error)]));
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Lines_RefuseTheLine_AtTheFirstBadByte(int position, int kind)
    {
        // The same two items as NDJSON: without the array's '[' every offset is one less.
        var array = Corrupt(position, kind);
        var text = array.AsSpan(1, array.Length - 2).ToArray();
        var split = Encoding.Latin1.GetString(text).IndexOf("},{", StringComparison.Ordinal) + 1;
        byte[] lines = [.. text.AsSpan(0, split), (byte)'\n', .. text.AsSpan(split + 1), (byte)'\n'];
        var failure = $"json.encoding at {position - 1} item 0 path $[0]: {JsonText.NotUtf8}";
        foreach (var chunk in new[] { lines.Length, 1 })
        {
            var strict = new JsonStreamOptions { Format = JsonStreamFormat.Lines };
            Assert.Equal(failure, Describe(await Raw(new ChunkedStream(lines, chunk), strict)));
            Assert.Equal(failure, Describe(await Typed(new ChunkedStream(lines, chunk), Context.Person, strict)));
            var skipping = new JsonStreamOptions { Format = JsonStreamFormat.Lines, SkipInvalidLines = true };
            Assert.Equal(failure + " | ok", Describe(await Typed(new ChunkedStream(lines, chunk), Context.Person, skipping)));
        }
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Base64_RefusesTheDecodedText_AtTheFirstBadByte(int position, int kind)
    {
        var base64 = Convert.ToBase64String(Corrupt(position, kind));
        var expected = $"json.encoding at {position} item  path $: {JsonText.NotUtf8}";
        Assert.Equal(expected, Describe([Base64Json.Deserialize(base64, Context.ListPerson)]));
        foreach (var chunk in new[] { base64.Length, 1, 3 })
        {
            Assert.Equal(expected, Describe([await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(base64), chunk), Context.ListPerson)]));
        }
    }

    // A name or skipped value on the way to the selected array is text too: it ends reading there, as a syntax error does.
    [Fact]
    public async Task PathPrefix_ThatIsNotUtf8_EndsReadingThere()
    {
        var bytes = """{"meta":"a?b","data":[1,2]}"""u8.ToArray();
        bytes[10] = 0xFE;
        foreach (var chunk in new[] { bytes.Length, 1 })
        {
            var results = await Typed(new ChunkedStream(bytes, chunk), Context.Int32, new JsonStreamOptions { Path = "$.data" });
            Assert.Equal($"json.encoding at 10 item  path $: {JsonText.NotUtf8}", Describe(results));
        }
    }

    [Fact]
    public async Task ValidUtf8_IsUntouched()
    {
        var bytes = """[{"Id":1,"Name":"é中😀","Score":1,"Active":true,"Tags":[]}]"""u8.ToArray();
        var results = await Typed(new MemoryStream(bytes), Context.Person);
        Assert.Equal("é中😀", Assert.Single(results).Value.Name);
    }

    private static byte[] Corrupt(int position, int kind) => [.. Valid.AsSpan(0, position), .. BadSequences[kind], .. Valid.AsSpan(position + 1)];

    private static async Task<List<Result<JsonRawItem>>> Raw(Stream stream, JsonStreamOptions? options = null)
    {
        var results = new List<Result<JsonRawItem>>();
        await foreach (var item in JsonItems.ReadRawAsync(stream, options))
        {
            results.Add(item);
        }

        return results;
    }

    private static async Task<List<Result<T>>> Typed<T>(Stream stream, System.Text.Json.Serialization.Metadata.JsonTypeInfo<T> typeInfo, JsonStreamOptions? options = null)
    {
        var results = new List<Result<T>>();
        await foreach (var item in JsonItems.ReadAsync(stream, typeInfo, options))
        {
            results.Add(item);
        }

        return results;
    }

    private static string Describe<T>(IEnumerable<Result<T>> results) => string.Join(" | ", results.Select(result => result.IsSuccess
        ? "ok"
        : $"{result.Error.Code} at {result.Error.ByteOffset} item {result.Error.ItemIndex} path {result.Error.Path}: {result.Error.Message}"));
}

using System.Text;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

public class JsonLinesTests
{
    private static readonly TestJsonContext Context = TestJsonContext.Default;

    private static async Task<List<Result<T>>> ReadLines<T>(string text, System.Text.Json.Serialization.Metadata.JsonTypeInfo<T> typeInfo, bool skipInvalid = false, int chunk = 1 << 20)
    {
        var options = new JsonStreamOptions { Format = JsonStreamFormat.Lines, SkipInvalidLines = skipInvalid, BufferSize = 16 };
        var results = new List<Result<T>>();
        await foreach (var item in JsonItems.ReadAsync(new ChunkedStream(Encoding.UTF8.GetBytes(text), chunk), typeInfo, options))
        {
            results.Add(item);
        }

        return results;
    }

    [Theory]
    [InlineData(1)]
    [InlineData(5)]
    [InlineData(1 << 20)]
    public async Task Lines_ReadEachLineAndIgnoreBlankOnesAndCarriageReturns(int chunk)
    {
        var results = await ReadLines("{\"Id\":1}\r\n\n   \n{\"Id\":2}\n  {\"Id\":3}  ", Context.StrictPerson, chunk: chunk);
        Assert.Equal([1, 2, 3], results.Select(r => r.Value.Id));
    }

    [Fact]
    public async Task Lines_InvalidLineEndsTheStreamByDefault()
    {
        const string text = "{\"Id\":1}\n{\"Id\":\n{\"Id\":3}\n";
        var results = await ReadLines(text, Context.StrictPerson);
        Assert.Equal(2, results.Count);
        Assert.Equal(JsonErrorCodes.Truncated, results[1].Error.Code);
        Assert.Equal(1, results[1].Error.ItemIndex);
        Assert.Equal(text.IndexOf('\n', 9), results[1].Error.ByteOffset);
        Assert.Contains("Line 2", results[1].Error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Lines_SkipInvalidLines_ReportsAndGoesOn()
    {
        const string text = "{\"Id\":1}\n{\"Id\":@}\n{\"Id\":3} trailing\n{\"Id\":\"x\"}\n{\"Id\":5}";
        var results = await ReadLines(text, Context.StrictPerson, skipInvalid: true);
        Assert.Equal(5, results.Count);
        Assert.Equal(1, results[0].Value.Id);
        Assert.Equal(JsonErrorCodes.Syntax, results[1].Error.Code);
        Assert.Equal(text.IndexOf('@', StringComparison.Ordinal), results[1].Error.ByteOffset);
        Assert.Equal(JsonErrorCodes.Syntax, results[2].Error.Code);
        Assert.Equal(JsonErrorCodes.Bind, results[3].Error.Code);
        Assert.Equal("$[3].Id", results[3].Error.Path);
        Assert.Equal(5, results[4].Value.Id);
    }

    [Fact]
    public async Task Lines_OverlongLineIsSkippedWhenAsked()
    {
        var options = new JsonStreamOptions { Format = JsonStreamFormat.Lines, SkipInvalidLines = true, MaxItemSize = 32, BufferSize = 16 };
        var text = "1\n\"" + new string('x', 500) + "\"\n3\n";
        var results = new List<Result<int>>();
        await foreach (var item in JsonItems.ReadAsync(new ChunkedStream(Encoding.UTF8.GetBytes(text), 8), Context.Int32, options))
        {
            results.Add(item);
        }

        Assert.Equal(3, results.Count);
        Assert.Equal(1, results[0].Value);
        Assert.Equal(JsonErrorCodes.ItemTooLarge, results[1].Error.Code);
        Assert.Equal(3, results[2].Value);
    }
}

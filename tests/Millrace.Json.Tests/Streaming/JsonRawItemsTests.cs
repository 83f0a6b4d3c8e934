using System.Text;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

public class JsonRawItemsTests
{
    [Fact]
    public async Task ReadRawAsync_Array_GivesEachItemsBytesIndexAndOffset()
    {
        var json = """[ {"a": 1}, [2, 3] ,"four",5 ]"""u8.ToArray();
        var items = await ReadAll(new MemoryStream(json), null);

        Assert.Equal(["{\"a\": 1}", "[2, 3]", "\"four\"", "5"], items.Select(i => i.Text));
        Assert.Equal([0L, 1, 2, 3], items.Select(i => i.Index));
        Assert.Equal([2L, 12, 20, 27], items.Select(i => i.Offset));
    }

    [Fact]
    public async Task ReadRawAsync_NdjsonUnderPathAndLimits_SameRulesAsTheBoundPath()
    {
        var lines = "{\"x\":1}\n\n  [1]\n"u8.ToArray();
        var items = await ReadAll(new MemoryStream(lines), new JsonStreamOptions { Format = JsonStreamFormat.Lines });
        Assert.Equal(["{\"x\":1}", "[1]"], items.Select(i => i.Text));

        var page = """{"next":"c","data":{"items":[1,2]}}"""u8.ToArray();
        var paged = await ReadAll(new MemoryStream(page), new JsonStreamOptions { Path = "$.data.items" });
        Assert.Equal(["1", "2"], paged.Select(i => i.Text));
    }

    [Fact]
    public async Task ReadRawAsync_SyntaxErrorAndTooLarge_AreLocatedFailures()
    {
        var results = new List<Result<JsonRawItem>>();
        await foreach (var item in JsonItems.ReadRawAsync(new MemoryStream("[1,{\"a\":tru}]"u8.ToArray())))
        {
            results.Add(item);
        }

        Assert.True(results[0].IsSuccess);
        Assert.Equal(JsonErrorCodes.Syntax, results[1].Error.Code);
        Assert.Equal(8, results[1].Error.ByteOffset);
        Assert.Equal(2, results.Count);

        await foreach (var item in JsonItems.ReadRawAsync(new MemoryStream("[\"0123456789\"]"u8.ToArray()), new JsonStreamOptions { MaxItemSize = 5 }))
        {
            Assert.Equal(JsonErrorCodes.ItemTooLarge, item.Error.Code);
        }
    }

    [Fact]
    public async Task ReadRawAsync_StopAfterK_ReadsOnlyTheBytesTheyNeed()
    {
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 100_000)) + "]");
        var stream = new CountingStream(json);
        var taken = 0;
        await foreach (var item in JsonItems.ReadRawAsync(stream))
        {
            Assert.True(item.IsSuccess);
            if (++taken == 10)
            {
                break;
            }
        }

        Assert.True(stream.BytesRead <= JsonStreamConstants.BufferSize, $"read {stream.BytesRead} bytes for 10 items");
    }

    [Fact]
    public async Task ReadRawAsync_Twice_Throws()
    {
        var items = JsonItems.ReadRawAsync(new MemoryStream("[1]"u8.ToArray()));
        await foreach (var item in items)
        {
            Assert.True(item.IsSuccess);
        }

        await Assert.ThrowsAsync<InvalidOperationException>(async () =>
        {
            await foreach (var item in items)
            {
                Assert.Fail("enumerated twice");
            }
        });
    }

    [Fact]
    public async Task ReadRawAsync_Cancelled_ThrowsBetweenItems()
    {
        using var cancellation = new CancellationTokenSource();
        var seen = 0;
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (var item in JsonItems.ReadRawAsync(new MemoryStream("[1,2,3]"u8.ToArray()), cancellationToken: cancellation.Token))
            {
                seen++;
                await cancellation.CancelAsync();
            }
        });
        Assert.Equal(1, seen);
    }

    private static async Task<List<(string Text, long Index, long Offset)>> ReadAll(Stream stream, JsonStreamOptions? options)
    {
        var items = new List<(string, long, long)>();
        await foreach (var item in JsonItems.ReadRawAsync(stream, options))
        {
            var raw = item.Value;
            items.Add((Encoding.UTF8.GetString(raw.Utf8.Span), raw.Index, raw.ByteOffset));
        }

        return items;
    }
}

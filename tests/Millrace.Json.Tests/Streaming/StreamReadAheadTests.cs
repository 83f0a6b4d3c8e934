using System.IO.Pipelines;
using System.Text;
using System.Text.Json;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

/// <summary>The scanner's read ahead: it changes when bytes arrive, never which items or errors come out.</summary>
public sealed class StreamReadAheadTests
{
    private static readonly TestJsonContext Context = TestJsonContext.Default;

    [Theory]
    [InlineData(16, 1)]
    [InlineData(64, 1)]
    [InlineData(100, 2)]
    [InlineData(4096, 1)]
    [InlineData(4096, 2)]
    public async Task ReadAsync_FromAStreamWhoseReadsCompleteLater_SameItemsAsFromMemory(int bufferSize, int workers)
    {
        // Items of 10 to 40 bytes and a few long strings, so that the unconsumed bytes at a refill sometimes fit the
        // head reserved before the bytes read ahead (the buffers are swapped) and sometimes do not (they are copied).
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 3_000).Select(i =>
            i % 97 == 0 ? $$"""{"Id":{{i}},"Name":"{{new string('x', 150)}}"}""" : $$"""{"Id":{{i}},"Name":"n{{i}}"}""")) + "]");
        var options = new JsonStreamOptions { BufferSize = bufferSize, BindingWorkers = workers };
        var fromMemory = await Describe(JsonItems.ReadAsync(new MemoryStream(json), Context.JsonElement, options));

        var fromLater = await Describe(JsonItems.ReadAsync(new AsynchronousStream(json), Context.JsonElement, options));

        Assert.Equal(3_000, fromMemory.Count);
        Assert.Equal(fromMemory, fromLater);
        Assert.Equal(await DescribeRaw(new MemoryStream(json), options), await DescribeRaw(new AsynchronousStream(json), options));
    }

    [Fact]
    public async Task ReadAsync_ASlowProducerAfterTwoFullReads_ItsItemsArriveWithoutWaitingForMore()
    {
        // About 11 KB at once: two reads fill a 4 KiB buffer, so a read ahead starts, and gets the rest, less than its
        // room. The producer writes the last item only once the consumer has every item before it.
        var pipe = new Pipe();
        await pipe.Writer.WriteAsync(Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 1_000).Select(i => $$"""{"Id":{{i}}}""")) + ","));
        var allBefore = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var producer = Task.Run(async () =>
        {
            var arrived = await Task.WhenAny(allBefore.Task, Task.Delay(TimeSpan.FromSeconds(20))) == allBefore.Task;
            await pipe.Writer.WriteAsync("{\"Id\":1000}]"u8.ToArray());
            await pipe.Writer.CompleteAsync();
            return arrived;
        });

        var ids = new List<int>();
        await foreach (var item in JsonItems.ReadAsync(pipe.Reader.AsStream(), Context.CountedItem, new JsonStreamOptions { BufferSize = 4096 }))
        {
            ids.Add(item.Value.Id);
            if (item.Value.Id == 999)
            {
                allBefore.TrySetResult();
            }
        }

        Assert.True(await producer, "the items already written waited for the producer's next write");
        Assert.Equal(Enumerable.Range(0, 1_001), ids);
    }

    [Fact]
    public async Task ReadAsync_StopWhileAReadAheadWaitsForBytes_CancelsTheReadAndReturns()
    {
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 100_000).Select(i => $$"""{"Id":{{i}}}""")) + "]");
        var stream = new AsynchronousStream(json, hangAfter: 6 * 1024);
        var taken = 0;
        var reading = Task.Run(async () =>
        {
            await foreach (var item in JsonItems.ReadAsync(stream, Context.CountedItem, new JsonStreamOptions { BufferSize = 4096 }))
            {
                // Inside the first two reads (about 6.6 KB), once the third, read ahead, waits for bytes that never come.
                if (++taken == 600)
                {
                    break;
                }
            }
        });

        await reading.WaitAsync(TimeSpan.FromSeconds(30));
        await WaitUntil(() => stream.ReadCancelled);
        Assert.Equal(600, taken);
    }

    [Fact]
    public async Task ReadAsync_CancelledWhileAReadAheadWaitsForBytes_Throws()
    {
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 100_000).Select(i => $$"""{"Id":{{i}}}""")) + "]");
        var stream = new AsynchronousStream(json, hangAfter: 6 * 1024);
        using var cancel = new CancellationTokenSource();
        var taken = 0;
        var reading = Task.Run(async () =>
        {
            await foreach (var item in JsonItems.ReadAsync(stream, Context.CountedItem, new JsonStreamOptions { BufferSize = 4096 }, cancel.Token))
            {
                if (++taken == 600)
                {
                    await cancel.CancelAsync();
                }
            }
        });

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => reading.WaitAsync(TimeSpan.FromSeconds(30)));
        await WaitUntil(() => stream.ReadCancelled);
    }

    private static async Task WaitUntil(Func<bool> condition)
    {
        for (var i = 0; i < 300 && !condition(); i++)
        {
            await Task.Delay(100);
        }

        Assert.True(condition());
    }

    private static async Task<List<string>> Describe(IAsyncEnumerable<Result<JsonElement>> items)
    {
        var lines = new List<string>();
        await foreach (var item in items)
        {
            lines.Add(item.TryGetValue(out var value) ? value.GetRawText() : item.Error.ToString());
        }

        return lines;
    }

    private static async Task<List<string>> DescribeRaw(Stream stream, JsonStreamOptions options)
    {
        var lines = new List<string>();
        await foreach (var item in JsonItems.ReadRawAsync(stream, options))
        {
            lines.Add(item.TryGetValue(out var raw) ? $"{raw.Index}@{raw.ByteOffset}: {Encoding.UTF8.GetString(raw.Utf8.Span)}" : item.Error.ToString());
        }

        return lines;
    }
}

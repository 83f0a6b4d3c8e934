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
    [InlineData(16, 1, false)]
    [InlineData(64, 1, true)]
    [InlineData(100, 2, false)]
    [InlineData(4096, 1, true)]
    [InlineData(4096, 2, false)]
    [InlineData(4096, 3, true)]
    public async Task ReadAsync_FromASeekableStreamWhoseReadsCompleteLater_SameItemsAsOneRead(int bufferSize, int workers, bool malformed)
    {
        // Items of 10 to 40 bytes and a few long strings, so that the unconsumed bytes at a refill sometimes fit the
        // head reserved before the bytes read ahead (the buffers are swapped) and sometimes do not (they are copied).
        var items = Enumerable.Range(0, 3_000).Select(i => i % 97 == 0 ? $$"""{"Id":{{i}},"Name":"{{new string('x', 150)}}"}""" : $$"""{"Id":{{i}},"Name":"n{{i}}"}""");
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", items) + (malformed ? """,{"Id":tru}""" : "") + "]");
        var oneRead = new JsonStreamOptions { BufferSize = json.Length + 1 };
        var expected = await Describe(JsonItems.ReadAsync(new MemoryStream(json), Context.JsonElement, oneRead));
        var options = new JsonStreamOptions { BufferSize = bufferSize, BindingWorkers = workers };

        var fromLater = await Describe(JsonItems.ReadAsync(new AsynchronousStream(json), Context.JsonElement, options));
        var raw = await DescribeRaw(new AsynchronousStream(json), options, json);

        Assert.Equal(malformed ? 3_001 : 3_000, expected.Count);
        Assert.Equal(expected, fromLater);
        Assert.Equal(await DescribeRaw(new MemoryStream(json), oneRead, json), raw);
    }

    [Fact]
    public async Task ReadAsync_ASlowProducerAfterTwoFullReads_ItsItemsArriveWithoutWaitingForMore()
    {
        // About 11 KB at once: two reads fill a 4 KiB buffer. A pipe is not seekable, so nothing is read ahead; a read
        // ahead that did not fill its room must not count as full either (the seekable test above).
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
        await foreach (var item in JsonItems.ReadAsync(pipe.Reader.AsStream(), Context.StrictPerson, new JsonStreamOptions { BufferSize = 4096 }))
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

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public async Task ReadAsync_StopWhileAReadAheadWaitsForBytes_CancelsTheReadBeforeItReturns(int workers)
    {
        var stream = new AsynchronousStream(People(), hangAfter: 6 * 1024);
        var taken = 0;
        await foreach (var item in JsonItems.ReadAsync(stream, Context.StrictPerson, new JsonStreamOptions { BufferSize = 4096, BindingWorkers = workers }).WithCancellation(CancellationToken.None))
        {
            // Inside the first two reads (about 6.6 KB), once the third, read ahead, waits for bytes that never come.
            if (++taken == 600)
            {
                break;
            }
        }

        Assert.Equal(600, taken);
        Assert.True(stream.ReadCancelled, "the enumeration ended with a read of the caller's stream still running");
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public async Task ReadAsync_CancelledWhileARefillWaitsForAReadAhead_ThrowsAndCancelsTheRead(int workers)
    {
        var stream = new AsynchronousStream(People(), hangAfter: 6 * 1024);
        using var cancel = new CancellationTokenSource();
        var taken = 0;
        var reading = Task.Run(async () =>
        {
            await foreach (var item in JsonItems.ReadAsync(stream, Context.StrictPerson, new JsonStreamOptions { BufferSize = 4096, BindingWorkers = workers }, cancel.Token))
            {
                // Every item that arrived (about 740) is taken; the refill after them waits for the read ahead.
                taken++;
            }
        });

        await WaitUntil(() => taken >= 700);
        await Task.Delay(200);
        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => reading.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.True(stream.ReadCancelled, "the enumeration ended with a read of the caller's stream still running");
    }

    private static byte[] People() =>
        Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 100_000).Select(i => $$"""{"Id":{{i}}}""")) + "]");

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

    // Each raw item's bytes are checked against the input at its offset, which no other read has to agree with.
    private static async Task<List<string>> DescribeRaw(Stream stream, JsonStreamOptions options, byte[] json)
    {
        var lines = new List<string>();
        await foreach (var item in JsonItems.ReadRawAsync(stream, options))
        {
            if (item.TryGetValue(out var raw))
            {
                Assert.True(json.AsSpan((int)raw.ByteOffset, raw.Utf8.Length).SequenceEqual(raw.Utf8.Span), $"item {raw.Index} at {raw.ByteOffset}");
                lines.Add($"{raw.Index}@{raw.ByteOffset}: {Encoding.UTF8.GetString(raw.Utf8.Span)}");
            }
            else
            {
                lines.Add(item.Error.ToString());
            }
        }

        return lines;
    }
}

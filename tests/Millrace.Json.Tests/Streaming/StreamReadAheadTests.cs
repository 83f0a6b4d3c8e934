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

    [Theory]
    [InlineData(4096, false)]
    [InlineData(4096, true)]
    [InlineData(16 * 1024, false)]
    public async Task ReadAsync_TwoWorkersOverAFile_SameItemsAsOneRead(int bufferSize, bool malformed)
    {
        // A file's read ahead is done by the reader itself while the worker binds (both pool threads busy), and near a
        // buffer's end the buffer is filled early so that the worker has items to bind: neither changes the items.
        var items = Enumerable.Range(0, 5_000).Select(i => i % 89 == 0 ? $$"""{"Id":{{i}},"Name":"{{new string('y', 300)}}"}""" : $$"""{"Id":{{i}},"Name":"n{{i}}"}""");
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", items) + (malformed ? """,{"Id":fals}""" : "") + "]");
        var path = Path.Combine(Path.GetTempPath(), $"millrace-readahead-{Guid.NewGuid():N}.json");
        await File.WriteAllBytesAsync(path, json);
        try
        {
            var expected = await Describe(JsonItems.ReadAsync(new MemoryStream(json), Context.JsonElement, new JsonStreamOptions { BufferSize = json.Length + 1 }));
            await using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.Asynchronous);

            var fromFile = await Describe(JsonItems.ReadAsync(file, Context.JsonElement, new JsonStreamOptions { BufferSize = bufferSize, BindingWorkers = 2 }));

            Assert.Equal(malformed ? 5_001 : 5_000, expected.Count);
            Assert.Equal(expected, fromFile);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    public async Task ReadAsync_ASeekableSourceFailsAfterSomeReads_TheSameItemsBeforeTheFailureAsOneWorker(int workers)
    {
        // A read ahead that failed is never taken early: its error comes where one worker's does, after the same items.
        var json = People();
        async Task<(List<int> Ids, Exception? Failure)> Read(int count)
        {
            var ids = new List<int>();
            try
            {
                await foreach (var item in JsonItems.ReadAsync(new SeekableFailingStream(json, failAfter: 40 * 1024), Context.StrictPerson, new JsonStreamOptions { BufferSize = 4096, BindingWorkers = count }))
                {
                    ids.Add(item.Value.Id);
                }
            }
            catch (IOException exception)
            {
                return (ids, exception);
            }

            return (ids, null);
        }

        var one = await Read(1);
        var many = await Read(workers);

        Assert.NotNull(one.Failure);
        Assert.NotNull(many.Failure);
        Assert.True(one.Ids.Count > 3_000, $"{one.Ids.Count} items before the failure");
        Assert.Equal(one.Ids, many.Ids);
    }

    [Fact]
    public async Task ReadNow_WhateverThreadComesFirst_TheStreamIsReadOncePerReadAhead()
    {
        var data = Enumerable.Range(0, 10_000).Select(i => (byte)i).ToArray();
        var stream = new MemoryStream(data);
        await using var readAhead = new StreamReadAhead(stream, 1024);
        var taken = new List<byte>();
        for (var round = 1; round <= 3; round++)
        {
            readAhead.Start();
            if (round != 2)
            {
                // The second round is left to the pool; in the others the pool may still come first.
                readAhead.ReadNow();
            }

            await readAhead.WaitAsync(CancellationToken.None);
            readAhead.ReadNow();
            var bytes = new byte[1024];
            taken.AddRange(bytes.AsSpan(0, readAhead.Take(bytes)).ToArray());
            Assert.Equal(taken.Count, stream.Position);
        }

        Assert.Equal(data.Take(taken.Count), taken);
        Assert.Equal(3 * (1024 - 256), taken.Count);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task PendingRead_ClaimedByOneThread_TheOtherDoesNotRead(bool callerFirst)
    {
        var stream = new CountingStream(new byte[100]);
        var destination = new byte[10];
        var read = new StreamReadAhead.PendingRead(stream, destination, CancellationToken.None);

        if (callerFirst)
        {
            read.Read();
            await read.ReadAsync();
        }
        else
        {
            await read.ReadAsync();
            read.Read();
        }

        Assert.Equal(10, await read.Outcome.Task);
        Assert.Equal((callerFirst ? 1 : 0, callerFirst ? 0 : 1), (stream.Reads, stream.AsynchronousReads));
    }

    [Fact]
    public async Task PendingRead_Abandoned_NeverReads()
    {
        var stream = new CountingStream(new byte[100]);
        var read = new StreamReadAhead.PendingRead(stream, new byte[10], CancellationToken.None);

        read.Abandon();
        read.Read();
        await read.ReadAsync();

        Assert.True(read.Outcome.Task.IsCanceled);
        Assert.Equal((0, 0), (stream.Reads, stream.AsynchronousReads));
    }

    [Fact]
    public async Task ReadAhead_TheReadFailed_IsNeverSwappableAndItsErrorComesToTheFill()
    {
        // A disposed FileStream throws on any read, whichever thread makes it.
        var path = Path.Combine(Path.GetTempPath(), $"millrace-readahead-{Guid.NewGuid():N}.json");
        await File.WriteAllBytesAsync(path, new byte[4096]);
        try
        {
            var file = new FileStream(path, FileMode.Open, FileAccess.Read);
            await using var readAhead = new StreamReadAhead(file, 1024);
            await file.DisposeAsync();

            readAhead.Start();
            readAhead.ReadNow();

            await Assert.ThrowsAsync<ObjectDisposedException>(async () => await readAhead.WaitAsync(CancellationToken.None));
            Assert.False(readAhead.CanSwapNow(0, 1024));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public async Task ArrayScanner_TooFewBytesLeftForAGuessAndTheNextReadOver_AsksToFillEarly()
    {
        // What the two-worker reader does between items, by hand: the read ahead done on this thread, then a fill as soon
        // as too few bytes remain for a guess (a quarter of the buffer, as the reader asks). The items stay the one-read
        // items.
        var json = People();
        var options = new JsonStreamOptions { BufferSize = 4096 };
        await using var scanner = new JsonArrayScanner(new MemoryStream(json), options, Context.Options);
        var reader = new JsonInlineEngine<StrictPerson>(scanner, Context.StrictPerson);
        var ids = new List<int>();
        var earlyFills = 0;
        while (true)
        {
            scanner.ReadAheadNow();
            if (scanner.ShouldFillForGuess(1024))
            {
                Assert.False(scanner.TryGuessItemAhead(1024, 4096, out _, out _, out _));
                earlyFills++;
                await scanner.FillAsync(CancellationToken.None);
                Assert.True(scanner.TryGuessItemAhead(1024, 4096, out _, out _, out _));
            }

            var step = reader.TryRead(out var item);
            if (step == ScanStep.Item)
            {
                ids.Add(item.Value.Id);
            }
            else if (step == ScanStep.NeedMoreData)
            {
                await scanner.FillAsync(CancellationToken.None);
            }
            else
            {
                break;
            }
        }

        Assert.Equal(Enumerable.Range(0, 100_000), ids);
        Assert.True(earlyFills > 100, $"{earlyFills} early fills");
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
    public async Task ReadAsync_StopWhileAReadAheadWaitsForBytes_NoReadOfTheStreamRunsOn(int workers)
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
        // The read that waits was cancelled, or, when no pool thread had started it yet, abandoned: none runs on.
        Assert.True(stream.RunningReads == 0, "the enumeration ended with a read of the caller's stream still running");
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public async Task ReadAsync_CancelledWhileARefillWaitsForAReadAhead_ThrowsAndNoReadRunsOn(int workers)
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
        // The read that waits was cancelled, or, when no pool thread had started it yet, abandoned: none runs on.
        Assert.True(stream.RunningReads == 0, "the enumeration ended with a read of the caller's stream still running");
    }

    // Seekable, as a file is, so that it is read ahead; its reads fail once failAfter bytes have been read.
    private sealed class SeekableFailingStream(byte[] data, int failAfter) : ReadOnlyTestStream
    {
        private int _position;

        public override bool CanSeek => true;

        public override long Length => data.Length;

        public override long Position { get => _position; set => throw new NotSupportedException(); }

        public override int Read(Span<byte> buffer)
        {
            if (_position >= failAfter)
            {
                throw new IOException("The disk is gone.");
            }

            var count = Math.Min(buffer.Length, data.Length - _position);
            data.AsSpan(_position, count).CopyTo(buffer);
            _position += count;
            return count;
        }
    }

    // Counts its reads, synchronous and not.
    private sealed class CountingStream(byte[] data) : MemoryStream(data)
    {
        public int Reads { get; private set; }

        public int AsynchronousReads { get; private set; }

        public override int Read(Span<byte> buffer)
        {
            Reads++;
            return base.Read(buffer);
        }

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            AsynchronousReads++;
            return base.ReadAsync(buffer, cancellationToken);
        }
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

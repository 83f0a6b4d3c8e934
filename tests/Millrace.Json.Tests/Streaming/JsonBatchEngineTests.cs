using System.Text;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

public class JsonBatchEngineTests
{
    private static readonly TestJsonContext Context = TestJsonContext.Default;

    [Fact]
    public async Task ReadAsync_ManyItemsOnWorkers_AllInOrder()
    {
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 50_000).Select(i => $$"""{"Id":{{i}},"Name":"n{{i}}"}""")) + "]");
        var expected = 0;
        await foreach (var item in JsonItems.ReadAsync(new MemoryStream(json), Context.Person, new JsonStreamOptions { BindingWorkers = 3 }))
        {
            Assert.Equal(expected++, item.Value.Id);
        }

        Assert.Equal(50_000, expected);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(2)]
    [InlineData(int.MaxValue)]
    public async Task ReadAsync_TheScannerBindingEveryBatchOrSomeOrNone_SameAsOneWorker(int scannerBindsAtWaiting)
    {
        var json = MixedPeople();
        var one = await Describe(JsonItems.ReadAsync(new MemoryStream(json), Context.Person));
        var options = new JsonStreamOptions { BindingWorkers = 2, BufferSize = 4096 };

        var workers = await Describe(JsonBatchEngine<Person>.ReadAsync(new MemoryStream(json), null, Context.Person, options, scannerBindsAtWaiting, CancellationToken.None));

        Assert.Equal(one, workers);
        Assert.Equal(5_000, workers.Count);
    }

    [Theory]
    [InlineData(16)]
    [InlineData(512)]
    [InlineData(64 * 1024)]
    public async Task ReadAsync_AWorkerBindingAhead_SameAsOneWorker(int aheadBytes)
    {
        var json = MixedPeople();
        var one = await Describe(JsonItems.ReadAsync(new MemoryStream(json), Context.Person));
        var options = new JsonStreamOptions { BindingWorkers = 2, BufferSize = 4096 };

        var workers = await Describe(JsonAheadEngine<Person>.ReadAsync(new MemoryStream(json), Context.Person, options, aheadBytes, CancellationToken.None));

        Assert.Equal(one, workers);
        Assert.Equal(5_000, workers.Count);
    }

    [Theory]
    [InlineData(2, JsonStreamFormat.Array)]
    [InlineData(3, JsonStreamFormat.Array)]
    [InlineData(2, JsonStreamFormat.Lines)]
    public async Task ReadAsync_TheSameSequenceEnumeratedTwice_SameItemsEachTime(int workers, JsonStreamFormat format)
    {
        var people = Enumerable.Range(0, 3_000).Select(i => $$"""{"Id":{{i}},"Name":"n{{i}}"}""");
        var json = Encoding.UTF8.GetBytes(format == JsonStreamFormat.Array ? "[" + string.Join(",", people) + "]" : string.Join("\n", people));
        var stream = new MemoryStream(json);
        var items = JsonItems.ReadAsync(stream, Context.Person, new JsonStreamOptions { BindingWorkers = workers, Format = format });

        var first = await Describe(items);
        stream.Position = 0;
        var second = await Describe(items);

        Assert.Equal(3_000, first.Count);
        Assert.Equal(first, second);
    }

    [Fact]
    public async Task ReadAsync_StopAfterEachKWithAWorkerBindingAhead_TheFirstKItems()
    {
        var json = MixedPeople();
        var one = await Describe(JsonItems.ReadAsync(new MemoryStream(json), Context.Person));
        var options = new JsonStreamOptions { BindingWorkers = 2, BufferSize = 64 * 1024 };
        for (var k = 1; k <= 200; k += 7)
        {
            var taken = new List<string>();
            await foreach (var item in JsonAheadEngine<Person>.ReadAsync(new MemoryStream(json), Context.Person, options, aheadBytes: 512, CancellationToken.None))
            {
                taken.Add(Line(item));
                if (taken.Count == k)
                {
                    break;
                }
            }

            Assert.Equal(one.Take(k), taken);
        }
    }

    [Fact]
    public async Task ReadAsync_TwoWorkersOverAnArrayOfObjects_StopAfterKReadsABoundedFewAhead()
    {
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 200_000).Select(i => $$"""{"Id":{{i}},"Name":"n{{i}}"}""")) + "]");
        var stream = new CountingStream(json);
        var taken = 0;
        await foreach (var item in JsonItems.ReadAsync(stream, Context.Person, new JsonStreamOptions { BindingWorkers = 2 }))
        {
            Assert.Equal(taken, item.Value.Id);
            if (++taken == 10)
            {
                break;
            }
        }

        Assert.True(stream.BytesRead <= 4 * JsonStreamConstants.BufferSize, $"read {stream.BytesRead} of {json.Length} bytes for 10 items");
    }

    [Fact]
    public async Task ReadAsync_StopAfterK_ReadsABoundedFewAhead()
    {
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 200_000)) + "]");
        var stream = new CountingStream(json);
        var taken = 0;
        await foreach (var item in JsonItems.ReadAsync(stream, Context.Int32, new JsonStreamOptions { BindingWorkers = 2 }))
        {
            Assert.Equal(taken, item.Value);
            if (++taken == 10)
            {
                break;
            }
        }

        Assert.True(stream.BytesRead <= 4 * JsonStreamConstants.BufferSize, $"read {stream.BytesRead} of {json.Length} bytes for 10 items");
    }

    [Fact]
    public async Task ReadAsync_BadItemsAndASyntaxError_SameAsOneWorker()
    {
        var json = """[{"Id":1},{"Id":"x"},null,{"Id":4},{"Id":]"""u8.ToArray();
        var one = await Describe(JsonItems.ReadAsync(new MemoryStream(json), Context.Person));
        var four = await Describe(JsonItems.ReadAsync(new MemoryStream(json), Context.Person, new JsonStreamOptions { BindingWorkers = 4 }));

        Assert.Equal(one, four);
        Assert.Equal(5, four.Count);
    }

    [Fact]
    public async Task ReadAsync_SourceFails_TheFailureReachesTheConsumerAfterTheItemsBeforeIt()
    {
        var stream = new FailingStream("[1,2,3,"u8.ToArray());
        var seen = new List<int>();
        await Assert.ThrowsAsync<IOException>(async () =>
        {
            await foreach (var item in JsonItems.ReadAsync(stream, Context.Int32, new JsonStreamOptions { BindingWorkers = 2 }))
            {
                seen.Add(item.Value);
            }
        });
        Assert.Equal([1, 2, 3], seen);
    }

    [Fact]
    public async Task ReadAsync_Cancelled_Throws()
    {
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 10_000)) + "]");
        using var cancellation = new CancellationTokenSource();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (var item in JsonItems.ReadAsync(new MemoryStream(json), Context.Int32, new JsonStreamOptions { BindingWorkers = 2 }, cancellation.Token))
            {
                await cancellation.CancelAsync();
            }
        });
    }

    private static async Task<List<string>> Describe<T>(IAsyncEnumerable<Result<T>> items)
    {
        var lines = new List<string>();
        await foreach (var item in items)
        {
            lines.Add(Line(item));
        }

        return lines;
    }

    private static string Line<T>(Result<T> item) =>
        item.IsSuccess ? $"ok {item.Value}" : $"{item.Error.Code} {item.Error.ByteOffset} {item.Error.ItemIndex} {item.Error.Path} {item.Error.Message}";

    /// <summary>Gives its bytes, then fails the next read as a broken connection would; not seekable, so its end is not known early.</summary>
    private sealed class FailingStream(byte[] bytes) : MemoryStream(bytes)
    {
        public override bool CanSeek => false;

        public override int Read(byte[] buffer, int offset, int count)
        {
            var read = base.Read(buffer, offset, count);
            return read > 0 ? read : throw new IOException("The connection was reset.");
        }

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            var read = base.Read(buffer.Span);
            return read > 0 ? ValueTask.FromResult(read) : ValueTask.FromException<int>(new IOException("The connection was reset."));
        }
    }

    // People, with items that do not bind and nulls among them.
    private static byte[] MixedPeople() => Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Range(0, 5_000).Select(i => i % 97 == 3 ? $$"""{"Id":"bad{{i}}"}""" : i % 131 == 5 ? "null" : $$"""{"Id":{{i}},"Name":"n{{i}}"}""")) + "]");
}

using System.IO.Pipelines;
using System.Text;
using System.Text.Json;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

public class JsonItemsTests
{
    private static readonly TestJsonContext Context = TestJsonContext.Default;

    private static MemoryStream Utf8(string json) => new(Encoding.UTF8.GetBytes(json));

    private static async Task<List<Result<T>>> ReadAll<T>(Stream stream, System.Text.Json.Serialization.Metadata.JsonTypeInfo<T> typeInfo, JsonStreamOptions? options = null)
    {
        var results = new List<Result<T>>();
        await foreach (var item in JsonItems.ReadAsync(stream, typeInfo, options))
        {
            results.Add(item);
        }

        return results;
    }

    [Fact]
    public async Task ReadAsync_TopLevelArray_YieldsEachItemInOrder()
    {
        var results = await ReadAll(Utf8("""[{"Id":1,"Name":"a","Score":1.5,"Active":true,"Tags":["x"]}, {"Id":2,"Name":"b","Score":0,"Active":false,"Tags":[]}]"""), Context.Person);
        Assert.Equal(2, results.Count);
        Assert.Equal(new Person(1, "a", 1.5, true, ["x"]), results[0].Value);
        Assert.Equal(new Person(2, "b", 0, false, []), results[1].Value);
    }

    [Theory]
    [InlineData("[]")]
    [InlineData("  [ ]  \n")]
    [InlineData("\uFEFF[]")]
    public async Task ReadAsync_EmptyArray_YieldsNothing(string json) =>
        Assert.Empty(await ReadAll(Utf8(json), Context.Int32));

    [Fact]
    public async Task ReadAsync_PrimitiveItemsAcrossOneByteReads_AreAllFound()
    {
        var results = await ReadAll(new ChunkedStream(Encoding.UTF8.GetBytes("[1, 22 ,333,\n4444]"), 1), Context.Int32, new JsonStreamOptions { BufferSize = 16 });
        Assert.Equal([1, 22, 333, 4444], results.Select(r => r.Value));
    }

    [Fact]
    public async Task ReadAsync_ItemLargerThanBuffer_GrowsTheBuffer()
    {
        var name = new string('n', 5000);
        var json = $$"""[{"Id":1,"Name":"{{name}}","Score":0,"Active":true,"Tags":[]},{"Id":2,"Name":"b","Score":0,"Active":true,"Tags":[]}]""";
        var results = await ReadAll(new ChunkedStream(Encoding.UTF8.GetBytes(json), 100), Context.Person, new JsonStreamOptions { BufferSize = 16 });
        Assert.Equal(name, results[0].Value.Name);
        Assert.Equal(2, results[1].Value.Id);
    }

    [Fact]
    public async Task ReadAsync_LargeItemAfterSmallOnes_IsFoundAcrossRefills()
    {
        // Small items teach the reader to bind in one pass; the large one is cut off by the buffer end and must be
        // noticed as incomplete rather than reported as an error.
        var people = Enumerable.Range(0, 40).Select(i => new Person(i, i == 30 ? new string('z', 3000) : "p", i, true, ["t"])).ToList();
        var bytes = JsonSerializer.SerializeToUtf8Bytes(people, Context.ListPerson);
        var results = await ReadAll(new ChunkedStream(bytes, 700), Context.Person, new JsonStreamOptions { BufferSize = 1024 });
        Assert.Equal(people, results.Select(r => r.Value));
    }

    [Fact]
    public async Task ReadAsync_NestedPath_SkipsEverythingBeforeTheArrayAndStopsAfterIt()
    {
        const string json = """
            {"meta":{"note":"] not the end [","list":[1,{"items":[9]}]},"items":[0],
             "data":{"count":2,"items":[1,2],"after":"ignored"},"next":"cursor" ,
            """;
        var results = await ReadAll(Utf8(json), Context.Int32, new JsonStreamOptions { Path = "$.data.items", BufferSize = 16 });
        Assert.Equal([1, 2], results.Select(r => r.Value));
    }

    [Fact]
    public async Task ReadAsync_PathNotFound_FailsWithPathNotFound()
    {
        var results = await ReadAll(Utf8("""{"data":{"other":[]}}"""), Context.Int32, new JsonStreamOptions { Path = "$.data.items" });
        var error = Assert.Single(results).Error;
        Assert.Equal(JsonErrorCodes.PathNotFound, error.Code);
        Assert.Equal("$.data", error.Path);
        Assert.Equal(19, error.ByteOffset);
    }

    [Theory]
    [InlineData("""{"a":1}""", "$", "json.not-an-array")]
    [InlineData("""[1]""", "$.data", "json.not-an-array")]
    [InlineData("""{"data":{"items":{"x":1}}}""", "$.data.items", "json.not-an-array")]
    [InlineData("""{"data":5}""", "$.data.items", "json.not-an-array")]
    public async Task ReadAsync_WrongShape_FailsOnce(string json, string path, string code)
    {
        var results = await ReadAll(Utf8(json), Context.Int32, new JsonStreamOptions { Path = path });
        Assert.Equal(code, Assert.Single(results).Error.Code);
    }

    [Fact]
    public async Task ReadAsync_BindFailures_AreReportedWithLocationAndReadingGoesOn()
    {
        const string json = """[{"Id":1},{"Id":"x"},{"Id":99999999999},{"Name":"no id"},{"Id":5}]""";
        var results = await ReadAll(Utf8(json), Context.StrictPerson);
        Assert.Equal(5, results.Count);
        Assert.Equal(1, results[0].Value.Id);
        Assert.Equal(5, results[4].Value.Id);

        var wrongType = results[1].Error;
        Assert.Equal(JsonErrorCodes.Bind, wrongType.Code);
        Assert.Equal(1, wrongType.ItemIndex);
        Assert.Equal("$[1].Id", wrongType.Path);
        Assert.Equal(json.IndexOf("\"x\"", StringComparison.Ordinal), wrongType.ByteOffset);

        var overflow = results[2].Error;
        Assert.Equal(JsonErrorCodes.Bind, overflow.Code);
        Assert.Equal(2, overflow.ItemIndex);
        Assert.Equal("$[2].Id", overflow.Path);

        var missing = results[3].Error;
        Assert.Equal(JsonErrorCodes.Bind, missing.Code);
        Assert.Equal(3, missing.ItemIndex);
        Assert.Contains("Id", missing.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ReadAsync_NullItem_FailsForReferenceTypesOnly()
    {
        var people = await ReadAll(Utf8("[null]"), Context.Person);
        Assert.Equal(JsonErrorCodes.NullItem, Assert.Single(people).Error.Code);

        var numbers = await ReadAll(Utf8("[1,null]"), Context.NullableInt32);
        Assert.Equal([1, null], numbers.Select(r => r.Value));
    }

    [Fact]
    public async Task ReadAsync_SyntaxError_ReportsOffsetAndEndsTheStream()
    {
        const string json = """[{"Id":1},{"Id":tru},{"Id":3}]""";
        var results = await ReadAll(Utf8(json), Context.StrictPerson);
        Assert.Equal(2, results.Count);
        Assert.Equal(1, results[0].Value.Id);
        var error = results[1].Error;
        Assert.Equal(JsonErrorCodes.Syntax, error.Code);
        Assert.Equal(json.IndexOf("tru", StringComparison.Ordinal), error.ByteOffset);
        Assert.Equal(1, error.ItemIndex);
    }

    [Fact]
    public async Task ReadAsync_SyntaxErrorAcrossChunks_ReportsAbsoluteOffset()
    {
        var prefix = string.Join(",", Enumerable.Range(0, 200).Select(i => $$"""{"Id":{{i}}}"""));
        var json = "[" + prefix + ",{\"Id\":@}]";
        var results = await ReadAll(new ChunkedStream(Encoding.UTF8.GetBytes(json), 7), Context.StrictPerson, new JsonStreamOptions { BufferSize = 64 });
        Assert.Equal(201, results.Count);
        Assert.Equal(json.IndexOf('@', StringComparison.Ordinal), results[^1].Error.ByteOffset);
    }

    [Fact]
    public async Task ReadAsync_TrailingContentAfterRootArray_IsASyntaxError()
    {
        var results = await ReadAll(Utf8("[1,2] x"), Context.Int32);
        Assert.Equal(3, results.Count);
        Assert.Equal(JsonErrorCodes.Syntax, results[2].Error.Code);
        Assert.Equal(6, results[2].Error.ByteOffset);
    }

    [Theory]
    [InlineData("""[{"Id":1},{"Id":2""")]
    [InlineData("""[{"Id":1},""")]
    [InlineData("""[{"Id":1}""")]
    public async Task ReadAsync_TruncatedInput_FailsWithTruncatedAfterTheCompleteItems(string json)
    {
        var results = await ReadAll(Utf8(json), Context.StrictPerson);
        Assert.Equal(2, results.Count);
        Assert.Equal(1, results[0].Value.Id);
        Assert.Equal(JsonErrorCodes.Truncated, results[1].Error.Code);
        Assert.Equal(Encoding.UTF8.GetByteCount(json), results[1].Error.ByteOffset);
    }

    [Fact]
    public async Task ReadAsync_EmptyInput_FailsWithTruncated() =>
        Assert.Equal(JsonErrorCodes.Truncated, Assert.Single(await ReadAll(Utf8(""), Context.Int32)).Error.Code);

    [Fact]
    public async Task ReadAsync_ItemOverMaxItemSize_FailsWithoutBufferingIt()
    {
        var stream = new EndlessStringItemStream();
        var results = await ReadAll(stream, Context.String, new JsonStreamOptions { MaxItemSize = 4096, BufferSize = 1024 });
        var error = Assert.Single(results).Error;
        Assert.Equal(JsonErrorCodes.ItemTooLarge, error.Code);
        Assert.Equal(0, error.ItemIndex);
        Assert.True(stream.BytesRead < 16 * 1024, $"read {stream.BytesRead} bytes");
    }

    [Fact]
    public async Task ReadAsync_CompleteItemOverMaxItemSize_FailsEvenWhenItFitsTheBuffer()
    {
        var results = await ReadAll(Utf8("""["short","this one is longer than twenty bytes"]"""), Context.String, new JsonStreamOptions { MaxItemSize = 20 });
        Assert.Equal("short", results[0].Value);
        Assert.Equal(JsonErrorCodes.ItemTooLarge, results[1].Error.Code);
        Assert.Equal(1, results[1].Error.ItemIndex);
    }

    [Fact]
    public async Task ReadAsync_ItemDeeperThanMaxDepth_FailsWithTooDeep()
    {
        var results = await ReadAll(Utf8("""[{"a":1},{"a":{"b":{"c":{"d":1}}}}]"""), Context.DictionaryStringInt32, new JsonStreamOptions { MaxDepth = 3 });
        Assert.Equal(1, results[0].Value["a"]);
        Assert.Equal(JsonErrorCodes.TooDeep, results[1].Error.Code);
    }

    [Fact]
    public async Task ReadAsync_TakeK_BindsOnlyKItems()
    {
        var json = "[" + string.Join(",", Enumerable.Range(0, 1000).Select(i => $$"""{"Id":{{i}}}""")) + "]";
        CountedItem.Reset();
        var taken = 0;
        await foreach (var item in JsonItems.ReadAsync(Utf8(json), Context.CountedItem))
        {
            Assert.Equal(taken, item.Value.Id);
            if (++taken == 10)
            {
                break;
            }
        }

        Assert.Equal(10, CountedItem.Created);
    }

    // In this class rather than with the other binding-worker tests, since CountedItem's count is shared: a class's tests
    // run one at a time.
    [Fact]
    public async Task ReadAsync_TakeKWithAWorkerBindingAhead_BindsAtMostItsReachMore()
    {
        var json = "[" + string.Join(",", Enumerable.Range(0, 200_000).Select(i => $$"""{"Id":{{i}}}""")) + "]";
        var options = new JsonStreamOptions { BindingWorkers = 2, BufferSize = 64 * 1024 };
        CountedItem.Reset();
        var taken = 0;
        await foreach (var item in JsonAheadEngine<CountedItem>.ReadAsync(Utf8(json), Context.CountedItem, options, aheadBytes: 512, CancellationToken.None))
        {
            Assert.Equal(taken, item.Value.Id);
            if (++taken == 2)
            {
                // The worker has its region once the first item is read: time for it to bind as far as it may, which the
                // reader does not reach before it stops.
                await Task.Delay(50);
            }

            if (taken == 10)
            {
                break;
            }
        }

        // The 10 taken, and the worker's at most 4 regions of 512 bytes, in items of 10 bytes and more with their commas
        // (where binding on to the buffer's end would be thousands).
        Assert.InRange(CountedItem.Created, 10, 10 + (4 * 512 / 10) + 1);
    }

    [Fact]
    public async Task ReadAsync_TakeKFromEndlessArray_ReadsOnlyAFewBuffers()
    {
        var stream = new EndlessArrayStream();
        var ids = new List<int>();
        await foreach (var item in JsonItems.ReadAsync(stream, Context.CountedItem, new JsonStreamOptions { BufferSize = 4096 }))
        {
            ids.Add(item.Value.Id);
            if (ids.Count == 5)
            {
                break;
            }
        }

        Assert.Equal([0, 1, 2, 3, 4], ids);
        Assert.True(stream.BytesRead <= 4096, $"read {stream.BytesRead} bytes");
    }

    [Fact]
    public async Task ReadAsync_SlowProducer_FirstItemArrivesBeforeSecondIsWritten()
    {
        var pipe = new Pipe();
        var firstReceived = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var producer = Task.Run(async () =>
        {
            await pipe.Writer.WriteAsync("[{\"Id\":1},"u8.ToArray());
            await firstReceived.Task.WaitAsync(TimeSpan.FromSeconds(20));
            await pipe.Writer.WriteAsync("{\"Id\":2}]"u8.ToArray());
            await pipe.Writer.CompleteAsync();
        });

        var ids = new List<int>();
        await using (var items = JsonItems.ReadAsync(pipe.Reader, Context.CountedItem).GetAsyncEnumerator())
        {
            Assert.True(await items.MoveNextAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(20)));
            ids.Add(items.Current.Value.Id);
            firstReceived.SetResult();
            while (await items.MoveNextAsync())
            {
                ids.Add(items.Current.Value.Id);
            }
        }

        await producer;
        Assert.Equal([1, 2], ids);
    }

    [Fact]
    public async Task ReadAsync_CancelledBetweenItems_Throws()
    {
        using var cts = new CancellationTokenSource();
        var seen = 0;
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (var item in JsonItems.ReadAsync(Utf8("[1,2,3]"), Context.Int32, cancellationToken: cts.Token))
            {
                seen++;
                await cts.CancelAsync();
            }
        });
        Assert.Equal(1, seen);
    }

    [Fact]
    public async Task ReadAsync_CancelledWhileWaitingForData_Throws()
    {
        var pipe = new Pipe();
        await pipe.Writer.WriteAsync("[1,"u8.ToArray());
        using var cts = new CancellationTokenSource();
        await using var items = JsonItems.ReadAsync(pipe.Reader, Context.Int32, cancellationToken: cts.Token).GetAsyncEnumerator();
        Assert.True(await items.MoveNextAsync());
        var pending = items.MoveNextAsync().AsTask();
        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => pending.WaitAsync(TimeSpan.FromSeconds(20)));
    }

    [Fact]
    public async Task ReadListAsync_ReadsEverythingOrStopsAtFirstFailure()
    {
        var list = await JsonItems.ReadListAsync(Utf8("[1,2,3]"), Context.Int32);
        Assert.Equal([1, 2, 3], list.Value);

        var failed = await JsonItems.ReadListAsync(Utf8("""[1,"x",3]"""), Context.Int32);
        Assert.Equal(JsonErrorCodes.Bind, failed.Error.Code);
        Assert.Equal(1, failed.Error.ItemIndex);
    }

    // A small array in a seekable stream is bound in one call of the list converter; a forward-only stream goes item
    // by item. Both must agree on every input: the same items, or the same error at the same place.
    [Theory]
    [InlineData("[1,2,3]")]
    [InlineData("\uFEFF [ 4 , 5 ] \n")]
    [InlineData("[]")]
    [InlineData("[1,\"x\",3]")]
    [InlineData("[1,99999999999,3]")]
    [InlineData("[1,null,3]")]
    [InlineData("[1,2] x")]
    [InlineData("[1,2][3]")]
    [InlineData("[1,2")]
    [InlineData("null")]
    [InlineData("{\"a\":1}")]
    [InlineData("")]
    public async Task ReadListAsync_SeekableAndForwardOnlyStreams_Agree(string json)
    {
        var bytes = Encoding.UTF8.GetBytes(json);
        var whole = await JsonItems.ReadListAsync(new MemoryStream(bytes), Context.Int32);
        var itemByItem = await JsonItems.ReadListAsync(new ChunkedStream(bytes, 3), Context.Int32);
        AssertSameOutcome(itemByItem, whole);
    }

    [Fact]
    public async Task ReadListAsync_SeekableAndForwardOnlyStreams_AgreeOnNullsDepthAndComments()
    {
        var people = """[{"Id":1,"Name":"a","Score":1,"Active":true,"Tags":[]}, null]"""u8.ToArray();
        AssertSameOutcome(
            await JsonItems.ReadListAsync(new ChunkedStream(people, 5), Context.Person),
            await JsonItems.ReadListAsync(new MemoryStream(people), Context.Person));

        var deep = "[[[[1]]],[[[[2]]]]]"u8.ToArray();
        var shallow = new JsonStreamOptions { MaxDepth = 3 };
        var deepWhole = await JsonItems.ReadListAsync(new MemoryStream(deep), Context.JsonElement, shallow);
        AssertSameOutcome(await JsonItems.ReadListAsync(new ChunkedStream(deep, 4), Context.JsonElement, shallow), deepWhole);
        Assert.Equal(JsonErrorCodes.TooDeep, deepWhole.Error.Code);

        var commented = "[1, /* two */ 2] // end"u8.ToArray();
        var serializerOptions = new JsonSerializerOptions { ReadCommentHandling = JsonCommentHandling.Skip, TypeInfoResolver = TestJsonContext.Default };
        var withComments = await JsonItems.ReadListAsync<int>(new MemoryStream(commented), serializerOptions);
        Assert.Equal([1, 2], withComments.Value);
        AssertSameOutcome(await JsonItems.ReadListAsync<int>(new ChunkedStream(commented, 2), serializerOptions), withComments);
    }

    [Fact]
    public async Task ReadListAsync_SeekableStream_StartsAtItsPosition()
    {
        var stream = new MemoryStream("xx[7,8]"u8.ToArray()) { Position = 2 };
        Assert.Equal([7, 8], (await JsonItems.ReadListAsync(stream, Context.Int32)).Value);
    }

    private static void AssertSameOutcome<T>(Result<List<T>> expected, Result<List<T>> actual)
    {
        Assert.Equal(expected.IsSuccess, actual.IsSuccess);
        if (expected.IsSuccess)
        {
            Assert.Equal(JsonSerializer.Serialize(expected.Value, Context.Options), JsonSerializer.Serialize(actual.Value, Context.Options));
            return;
        }

        Assert.Equal(expected.Error.Code, actual.Error.Code);
        Assert.Equal(expected.Error.ItemIndex, actual.Error.ItemIndex);
        Assert.Equal(expected.Error.ByteOffset, actual.Error.ByteOffset);
        Assert.Equal(expected.Error.Path, actual.Error.Path);
    }

    [Fact]
    public async Task ReadAsync_ReflectionOverload_BindsWithSerializerOptions()
    {
        var options = new JsonSerializerOptions { PropertyNameCaseInsensitive = true, TypeInfoResolver = TestJsonContext.Default };
        var items = new List<int>();
        await foreach (var item in JsonItems.ReadAsync<StrictPerson>(Utf8("""[{"id":7}]"""), options))
        {
            items.Add(item.Value.Id);
        }

        Assert.Equal([7], items);
    }

    [Fact]
    public void ReadAsync_NullArguments_ThrowImmediately()
    {
        Assert.Throws<ArgumentNullException>(() => JsonItems.ReadAsync((Stream)null!, Context.Int32));
        Assert.Throws<ArgumentNullException>(() => JsonItems.ReadAsync(Stream.Null, (System.Text.Json.Serialization.Metadata.JsonTypeInfo<int>)null!));
    }

    [Fact]
    public void ReadAsync_ReadsRandomRecordsBackEqual() => PropertyCheck.Run(
        Prop.ForAll(PeopleArbitrary(), Gen.Choose(1, 64).ToArbitrary(), Gen.Choose(16, 512).ToArbitrary(), (people, chunk, bufferSize) =>
        {
            var bytes = JsonSerializer.SerializeToUtf8Bytes(people, Context.ListPerson);
            var results = ReadAll(new ChunkedStream(bytes, chunk), Context.Person, new JsonStreamOptions { BufferSize = bufferSize }).GetAwaiter().GetResult();
            return results.All(r => r.IsSuccess) && results.Select(r => r.Value).SequenceEqual(people);
        }),
        maxTest: 200);

    internal static Arbitrary<List<Person>> PeopleArbitrary()
    {
        var text = Gen.Elements("", "a", "Ünïcödé", "quote\"back\\slash", "tab\tnew\nline", "😀 emoji", "long " + new string('x', 300));
        var person =
            from id in Gen.Choose(int.MinValue, int.MaxValue)
            from name in text
            from score in Gen.Choose(-100_000, 100_000).Select(v => v / 8.0)
            from active in Gen.Elements(true, false)
            from tags in Gen.ListOf(text)
            select new Person(id, name, score, active, [.. tags]);
        return Gen.ListOf(person).Select(list => list.ToList()).ToArbitrary();
    }

    /// <summary>A JSON array whose first item is a string that never ends.</summary>
    private sealed class EndlessStringItemStream : ReadOnlyTestStream
    {
        private bool _started;

        public long BytesRead { get; private set; }

        public override int Read(Span<byte> buffer)
        {
            buffer.Fill((byte)'a');
            if (!_started)
            {
                "[\""u8.CopyTo(buffer);
                _started = true;
            }

            BytesRead += buffer.Length;
            return buffer.Length;
        }
    }
}

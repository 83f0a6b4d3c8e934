using System.Text;
using System.Text.Json;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

/// <summary>
/// A feed of items that do not bind must not cost much more than one that does: an item whose first byte already
/// shows the mismatch is refused without an exception, and any other failing item costs at most what the serializer's
/// own failure costs, never that twice.
/// </summary>
public class JsonItemsFailureCostTests
{
    private static readonly TestJsonContext Context = TestJsonContext.Default;

    [Theory]
    [InlineData("[]")]
    [InlineData("1")]
    [InlineData("\"text\"")]
    [InlineData("true")]
    public async Task ReadAsync_ItemOfTheWrongKind_FailsWithoutAnException(string item)
    {
        const int Count = 2000;
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Repeat(item, Count)) + "]");
        var errors = new List<Error>();
        var thrown = await CountExceptionsOnThisThread(async () =>
        {
            await foreach (var result in JsonItems.ReadAsync(new MemoryStream(json), Context.Person))
            {
                errors.Add(result.Error);
            }
        });

        Assert.Equal(0, thrown);
        Assert.Equal(Count, errors.Count);
        Assert.All(errors, error => Assert.Equal(JsonErrorCodes.Bind, error.Code));
        Assert.Equal(1 + ((item.Length + 1) * 7), errors[7].ByteOffset);
        Assert.Equal("$[7]", errors[7].Path);
        Assert.Contains("Person", errors[7].Message, StringComparison.Ordinal);

        var list = await JsonItems.ReadListAsync(new MemoryStream(json), Context.Person);
        Assert.Equal(errors[0], list.Error);
    }

    [Fact]
    public async Task ReadAsync_CollectionItemThatIsAnObject_FailsWithoutAnException()
    {
        var errors = new List<Error>();
        var thrown = await CountExceptionsOnThisThread(async () =>
        {
            await foreach (var result in JsonItems.ReadAsync(new MemoryStream("[{},[1],{\"a\":1}]"u8.ToArray()), Context.ListInt32))
            {
                errors.Add(result.IsFailure ? result.Error : null!);
            }
        });

        Assert.Equal(0, thrown);
        Assert.Equal(JsonErrorCodes.Bind, errors[0].Code);
        Assert.Null(errors[1]);
        Assert.Equal(8, errors[2].ByteOffset);
    }

    [Fact]
    public async Task ReadAsync_FeedOfItemsThatDoNotBind_ThrowsNoMoreThanTheSerializerDoes()
    {
        const int Count = 500;
        var item = """{"Id":1,"Name":"a","Score":"high","Active":true,"Tags":[]}""";
        var alone = await CountExceptionsOnThisThread(() =>
        {
            Assert.ThrowsAny<JsonException>(() => JsonSerializer.Deserialize(item, Context.Person));
            return Task.CompletedTask;
        });
        var json = Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Repeat(item, Count)) + "]");
        var failures = 0;
        var thrown = await CountExceptionsOnThisThread(async () =>
        {
            await foreach (var result in JsonItems.ReadAsync(new MemoryStream(json), Context.Person))
            {
                failures += result.IsFailure ? 1 : 0;
            }
        });

        Assert.Equal(Count, failures);
        Assert.True(thrown <= (alone * Count) + 4, $"{thrown} exceptions for {Count} items; the serializer alone throws {alone} per item");
    }

    private static async Task<int> CountExceptionsOnThisThread(Func<Task> action)
    {
        // Reads from a MemoryStream complete synchronously, so the whole enumeration stays on this thread, and
        // exceptions that other tests throw meanwhile on theirs are not counted.
        var thread = Environment.CurrentManagedThreadId;
        var count = 0;
        void Count(object? sender, System.Runtime.ExceptionServices.FirstChanceExceptionEventArgs e)
        {
            if (Environment.CurrentManagedThreadId == thread)
            {
                Interlocked.Increment(ref count);
            }
        }

        AppDomain.CurrentDomain.FirstChanceException += Count;
        try
        {
            await action();
        }
        finally
        {
            AppDomain.CurrentDomain.FirstChanceException -= Count;
        }

        return count;
    }
}

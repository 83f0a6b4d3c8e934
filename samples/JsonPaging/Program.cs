// Streams the items of a large paged API response ({"meta":…,"data":{"items":[…]},"next":…}) and stops after
// the first page: only the bytes that page spans are read, however long the response is.
using System.Text;
using System.Text.Json.Serialization;
using Millrace.Json.Streaming;

const int PageSize = 20;
var response = new CountingStream(new MemoryStream(Encoding.UTF8.GetBytes(PagedResponse(itemCount: 100_000))));

var options = new JsonStreamOptions { Path = "$.data.items" };
var page = new List<Customer>(PageSize);
await foreach (var item in JsonItems.ReadAsync(response, SampleJson.Default.Customer, options))
{
    if (!item.IsSuccess)
    {
        Console.Error.WriteLine(item.Error);   // which item, which byte offset, which member
        continue;
    }

    page.Add(item.Value);
    if (page.Count == PageSize)
    {
        break;                                  // early exit: the rest of the response is never read
    }
}

Console.WriteLine($"first page: {string.Join(", ", page.Select(c => c.Name))}");
Console.WriteLine($"read {response.BytesRead:N0} of {response.Length:N0} bytes");

static string PagedResponse(int itemCount)
{
    var json = new StringBuilder("""{"meta":{"page":1,"total":""").Append(itemCount).Append("""},"data":{"items":[""");
    for (var i = 0; i < itemCount; i++)
    {
        json.Append(i == 0 ? "" : ",").Append($$"""{"id":{{i}},"name":"customer{{i:D6}}","balance":{{i * 1.25m}}}""");
    }

    return json.Append("""]},"next":"page-2"}""").ToString();
}

/// <summary>A customer as the API returns it.</summary>
internal sealed record Customer(int Id, string Name, decimal Balance);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(Customer))]
internal sealed partial class SampleJson : JsonSerializerContext;

/// <summary>Counts the bytes the reader pulls, to show how little of the response an early exit reads.</summary>
internal sealed class CountingStream(Stream inner) : Stream
{
    public long BytesRead { get; private set; }

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => inner.Length;

    public override long Position { get => inner.Position; set => throw new NotSupportedException(); }

    public override int Read(byte[] buffer, int offset, int count) => Count(inner.Read(buffer, offset, count));

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        Count(await inner.ReadAsync(buffer, cancellationToken));

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    private int Count(int read)
    {
        BytesRead += read;
        return read;
    }
}

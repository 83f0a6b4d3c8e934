using System.Text;
using System.Text.Json;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

/// <summary>
/// Random arrays of mixed item kinds with random whitespace, read through random buffer and read sizes, must give
/// exactly the items JsonDocument finds: this drives the one-pass path, the hand-read separators and the read-ahead
/// across every kind of boundary.
/// </summary>
public class JsonItemsShapeTests
{
    [Fact]
    public async Task ReadAsync_RandomMixedArrays_MatchJsonDocument()
    {
        var random = new Random(42);
        for (var run = 0; run < 300; run++)
        {
            var text = new StringBuilder("[");
            var count = random.Next(0, 40);
            for (var i = 0; i < count; i++)
            {
                text.Append(i == 0 ? Space(random) : Space(random) + "," + Space(random));
                AppendValue(text, random, depth: 0);
            }

            text.Append(Space(random)).Append(']').Append(Space(random));
            var json = text.ToString();
            using var expected = JsonDocument.Parse(json);
            var options = new JsonStreamOptions { BufferSize = random.Next(16, 300) };
            Stream stream = random.Next(2) == 0
                ? new MemoryStream(Encoding.UTF8.GetBytes(json))
                : new ChunkedStream(Encoding.UTF8.GetBytes(json), random.Next(1, 400));

            var actual = new List<string>();
            await foreach (var item in JsonItems.ReadAsync(stream, TestJsonContext.Default.JsonElement, options))
            {
                actual.Add(item.Value.GetRawText());
            }

            Assert.Equal(expected.RootElement.EnumerateArray().Select(e => e.GetRawText()), actual);
        }
    }

    private static string Space(Random random) => random.Next(4) switch
    {
        0 => "",
        1 => " ",
        2 => "\n  ",
        _ => "\t\r\n",
    };

    private static void AppendValue(StringBuilder text, Random random, int depth)
    {
        switch (random.Next(depth > 3 ? 4 : 7))
        {
            case 0:
                text.Append(random.Next(-1000, 1000));
                break;
            case 1:
                text.Append("\"s").Append(new string('x', random.Next(0, 30))).Append("\\u00e9\"");
                break;
            case 2:
                text.Append(random.Next(2) == 0 ? "true" : "null");
                break;
            case 3:
                text.Append("1.5e3");
                break;
            case 4:
            case 5:
                text.Append('{');
                var properties = random.Next(0, 5);
                for (var i = 0; i < properties; i++)
                {
                    text.Append(i == 0 ? "" : ",").Append(Space(random)).Append("\"p").Append(i).Append("\":").Append(Space(random));
                    AppendValue(text, random, depth + 1);
                }

                text.Append(Space(random)).Append('}');
                break;
            default:
                text.Append('[');
                var items = random.Next(0, 5);
                for (var i = 0; i < items; i++)
                {
                    text.Append(i == 0 ? "" : ",").Append(Space(random));
                    AppendValue(text, random, depth + 1);
                }

                text.Append(']');
                break;
        }
    }
}

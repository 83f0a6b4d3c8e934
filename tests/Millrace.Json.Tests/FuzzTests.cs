using System.Diagnostics;
using System.Text;
using Millrace.Json.Base64;
using Millrace.Json.Streaming;

namespace Millrace.Json.Tests;

/// <summary>
/// Random and mutated input, from a fixed seed, for a bounded time: the readers may only ever report failures
/// through results (or the library's own exception type), never crash, hang or throw anything else.
/// </summary>
public class FuzzTests
{
    private static readonly TimeSpan Budget = TimeSpan.FromSeconds(3);

    [Fact]
    public async Task JsonItems_RandomAndMutatedInput_OnlyEverYieldsResults()
    {
        var random = new Random(20261122);
        var seedJson = Encoding.UTF8.GetBytes("""[{"Id":1,"Name":"a","Score":1.5,"Active":true,"Tags":["x","y"]},{"Id":2,"Name":"b","Score":-3,"Active":false,"Tags":[]}]""");
        var clock = Stopwatch.StartNew();
        var runs = 0;
        while (clock.Elapsed < Budget && runs < 20_000)
        {
            var input = Mutate(random, seedJson);
            var options = new JsonStreamOptions
            {
                Format = random.Next(4) == 0 ? JsonStreamFormat.Lines : JsonStreamFormat.Array,
                SkipInvalidLines = random.Next(2) == 0,
                BufferSize = random.Next(16, 128),
                MaxItemSize = random.Next(8, 4096),
                MaxDepth = random.Next(1, 8),
            };
            await foreach (var item in JsonItems.ReadAsync(new ChunkedStream(input, random.Next(1, 64)), TestJsonContext.Default.Person, options))
            {
                Assert.True(item.IsSuccess || item.Error.ByteOffset is >= 0);
            }

            runs++;
        }

        Assert.True(runs > 100);
    }

    [Fact]
    public async Task Base64Json_RandomInput_OnlyEverFailsWithResults()
    {
        var random = new Random(7);
        var valid = Encoding.UTF8.GetBytes(Convert.ToBase64String("""{"Id":1,"Name":"a","Score":1.5,"Active":true,"Tags":["x"]}"""u8));
        var clock = Stopwatch.StartNew();
        var runs = 0;
        while (clock.Elapsed < Budget && runs < 20_000)
        {
            var input = Mutate(random, valid);
            var text = Encoding.Latin1.GetString(input);
            var alphabet = (Base64Alphabet)random.Next(3);
            var fromChars = Base64Json.Deserialize(text, TestJsonContext.Default.Person, alphabet);
            var fromBytes = Base64Json.Deserialize(input.AsSpan(), TestJsonContext.Default.Person, alphabet);
            var fromStream = await Base64Json.DeserializeAsync(new ChunkedStream(input, random.Next(1, 32)), TestJsonContext.Default.Person, alphabet);
            Assert.Equal(fromChars.IsSuccess, fromBytes.IsSuccess);
            Assert.True(fromStream.IsSuccess || fromStream.Error.Code.Length > 0);
            runs++;
        }

        Assert.True(runs > 100);
    }

    private static byte[] Mutate(Random random, byte[] seed)
    {
        if (random.Next(5) == 0)
        {
            var noise = new byte[random.Next(0, 200)];
            random.NextBytes(noise);
            return noise;
        }

        var bytes = seed.ToList();
        var edits = random.Next(1, 6);
        for (var i = 0; i < edits && bytes.Count > 0; i++)
        {
            var at = random.Next(bytes.Count);
            switch (random.Next(4))
            {
                case 0:
                    bytes[at] = (byte)random.Next(256);
                    break;
                case 1:
                    bytes.RemoveAt(at);
                    break;
                case 2:
                    bytes.Insert(at, (byte)"{}[]\",:0a\n"[random.Next(10)]);
                    break;
                default:
                    bytes.RemoveRange(at, bytes.Count - at);
                    break;
            }
        }

        return [.. bytes];
    }
}

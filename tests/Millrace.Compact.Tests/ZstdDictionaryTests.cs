using System.Buffers;
using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

public class ZstdDictionaryTests
{
    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse("""
        {"types":[{"name":"Event","id":3,"fields":[
          {"name":"id","index":1,"type":"int64"},
          {"name":"kind","index":2,"type":"string"},
          {"name":"source","index":3,"type":"string"},
          {"name":"note","index":4,"type":"string"}]}]}
        """);

    private static readonly string[] Kinds = ["order.created", "order.paid", "order.shipped", "order.cancelled"];

    private static string Event(int i) =>
        $$"""{"id":{{i}},"kind":"{{Kinds[i % Kinds.Length]}}","source":"checkout-service-eu-west-{{i % 3}}","note":"customer {{i * 7919 % 1000}} via web storefront"}""";

    private static CompactZstdDictionary Trained() =>
        CompactZstdDictionary.Train(Enumerable.Range(0, 600).Select(i => CompactTestSupport.Encode(Schema, "Event", Event(i))), 4096);

    [Fact]
    public void TrainedDictionary_ShrinksSmallRecordsBelowEveryOtherCompression_AndRoundTrips()
    {
        var dictionary = Trained();
        var json = Event(100_003);
        var plain = CompactTestSupport.Encode(Schema, "Event", json);
        var withDictionary = CompactJson.Encode(Schema, "Event", System.Text.Json.JsonDocument.Parse(json).RootElement, CompactCompression.Zstd, dictionary);
        var auto = CompactTestSupport.Encode(Schema, "Event", json, CompactCompression.Auto);

        Assert.True(withDictionary.Length < plain.Length / 2, $"{withDictionary.Length} of {plain.Length} bytes");
        Assert.True(withDictionary.Length < auto.Length, $"{withDictionary.Length} against auto's {auto.Length}");
        Assert.Equal(CompactTestSupport.Normalize(json), Decode(withDictionary, dictionary));

        var reloaded = new CompactZstdDictionary(dictionary.Bytes.Span);
        Assert.Equal(CompactTestSupport.Normalize(json), Decode(withDictionary, reloaded));
    }

    [Fact]
    public void DictionaryFrame_WithoutItsDictionary_IsACompactFormatException()
    {
        var dictionary = Trained();
        var frame = CompactJson.Encode(Schema, "Event", System.Text.Json.JsonDocument.Parse(Event(5)).RootElement, CompactCompression.Zstd, dictionary);

        var missing = Assert.Throws<CompactFormatException>(() => Decode(frame, null));
        Assert.Contains("dictionary", missing.Message, StringComparison.Ordinal);
        var other = CompactZstdDictionary.Train(Enumerable.Range(0, 600).Select(i => System.Text.Encoding.UTF8.GetBytes($"unrelated sample {i} {i * i} lorem ipsum {i % 17}")), 2048);
        Assert.Throws<CompactFormatException>(() => Decode(frame, other));
    }

    [Fact]
    public void ZstdBody_OverTheBodyLimit_OrCorrupt_IsACompactFormatException()
    {
        var big = CompactTestSupport.Encode(Schema, "Event", "{\"note\":\"" + new string('z', 100_000) + "\"}", CompactCompression.Zstd);
        Assert.True(big.Length < 1000);
        Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, big, new CompactLimits { MaxBodyLength = 10_000 }));

        for (var cut = 3; cut < big.Length; cut++)
        {
            Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, big[..cut]));
        }

        // Corrupt the structure, not the content (which the frame's checksum would catch too): the magic number after the 3-byte header.
        var corrupt = (byte[])big.Clone();
        corrupt[3] ^= 0xFF;
        Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, corrupt));
    }

    [Fact]
    public void RandomZstdBodies_NeverRaiseAnythingElse()
    {
        var random = new Random(11);
        var valid = CompactTestSupport.Encode(Schema, "Event", Event(1), CompactCompression.Zstd);
        for (var i = 0; i < 3000; i++)
        {
            // Half start from a real zstd frame with a few bytes changed, half are noise behind a zstd header.
            var frame = i % 2 == 0 ? (byte[])valid.Clone() : [1, 3, 3, .. RandomBytes(random, random.Next(0, 64))];
            if (i % 2 == 0)
            {
                for (var flips = random.Next(1, 4); flips > 0; flips--)
                {
                    frame[random.Next(3, frame.Length)] = (byte)random.Next(256);
                }
            }

            try
            {
                CompactTestSupport.Decode(Schema, frame);
            }
            catch (CompactFormatException)
            {
            }
        }
    }

    [Fact]
    public void Train_RejectsTooFewSamples() =>
        Assert.Throws<ArgumentException>(() => CompactZstdDictionary.Train([[1, 2, 3]]));

    private static string Decode(byte[] frame, CompactZstdDictionary? dictionary)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var writer = new System.Text.Json.Utf8JsonWriter(output))
        {
            CompactJson.Decode(Schema, frame, writer, zstdDictionary: dictionary);
        }

        return System.Text.Encoding.UTF8.GetString(output.WrittenSpan);
    }

    private static byte[] RandomBytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }
}

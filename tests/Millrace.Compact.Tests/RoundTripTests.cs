using System.Globalization;
using System.Text.Json.Nodes;
using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

public class RoundTripTests
{
    private const string AllKinds = """
        {"types":[{"name":"All","id":7,"fields":[
          {"name":"b","index":1,"type":"bool"},
          {"name":"i32","index":2,"type":"int32"},
          {"name":"i64","index":3,"type":"int64"},
          {"name":"u32","index":4,"type":"uint32"},
          {"name":"u64","index":5,"type":"uint64"},
          {"name":"f32","index":6,"type":"float32"},
          {"name":"f64","index":7,"type":"float64"},
          {"name":"dec","index":8,"type":"decimal"},
          {"name":"s","index":9,"type":"string"},
          {"name":"bytes","index":10,"type":"bytes"},
          {"name":"g","index":11,"type":"guid"},
          {"name":"ts","index":12,"type":"timestamp"},
          {"name":"dur","index":13,"type":"duration"},
          {"name":"list","index":14,"type":"list<int32>"},
          {"name":"nested","index":15,"type":"list<list<float64>>"},
          {"name":"map","index":16,"type":"map<string,All>"}]}]}
        """;

    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse(AllKinds);

    private static JsonObject RandomRecord(Random random, int depth)
    {
        var record = new JsonObject();
        void Maybe(string name, Func<JsonNode?> value)
        {
            if (random.Next(4) != 0)
            {
                record[name] = value();
            }
        }

        Maybe("b", () => random.Next(2) == 0);
        Maybe("i32", () => random.Next(int.MinValue, int.MaxValue));
        Maybe("i64", () => random.NextInt64(long.MinValue, long.MaxValue));
        Maybe("u32", () => (uint)random.NextInt64(0, uint.MaxValue));
        Maybe("u64", () => (ulong)random.NextInt64(0, long.MaxValue) * 2);
        Maybe("f32", () => (float)(random.NextDouble() * 1000));
        Maybe("f64", () => (random.NextDouble() - 0.5) * 1e10);
        Maybe("dec", () => Math.Round((decimal)random.NextDouble() * 100000m, 4));
        Maybe("s", () => new string([.. Enumerable.Range(0, random.Next(20)).Select(_ => "aé中 \"\\"[random.Next(6)])]) + (random.Next(3) == 0 ? "😀" : string.Empty));
        Maybe("bytes", () => Convert.ToBase64String([.. Enumerable.Range(0, random.Next(10)).Select(_ => (byte)random.Next(256))]));
        Maybe("g", () => new Guid([.. Enumerable.Range(0, 16).Select(_ => (byte)random.Next(256))]).ToString());
        Maybe("ts", () => DateTimeOffset.UnixEpoch.AddTicks(random.NextInt64(-1_000_000_000_000_000, 1_000_000_000_000_000)).ToString("O", CultureInfo.InvariantCulture));
        Maybe("dur", () => TimeSpan.FromTicks(random.NextInt64(-1_000_000_000_000, 1_000_000_000_000)).ToString("c", CultureInfo.InvariantCulture));
        Maybe("list", () => new JsonArray([.. Enumerable.Range(0, random.Next(5)).Select(_ => (JsonNode?)random.Next())]));
        Maybe("nested", () => new JsonArray([.. Enumerable.Range(0, random.Next(3)).Select(_ => (JsonNode?)new JsonArray([.. Enumerable.Range(0, random.Next(3)).Select(_ => (JsonNode?)random.NextDouble())]))]));
        if (depth < 2)
        {
            Maybe("map", () =>
            {
                var map = new JsonObject();
                for (var i = random.Next(3); i > 0; i--)
                {
                    map["k" + i] = RandomRecord(random, depth + 1);
                }

                return map;
            });
        }

        return record;
    }

    [Fact]
    public void RandomValuesOfEveryType_RoundTrip()
    {
        var random = new Random(5);
        for (var i = 0; i < 300; i++)
        {
            var json = RandomRecord(random, 0).ToJsonString();
            var compression = (CompactCompression)(i % 3);
            var bytes = CompactTestSupport.Encode(Schema, "All", json, compression);
            var decoded = CompactTestSupport.Decode(Schema, bytes);
            Assert.True(JsonNode.DeepEquals(Canonical(json), Canonical(decoded)), $"{json}\n{decoded}");
        }
    }

    [Theory]
    [InlineData(CompactCompression.Deflate)]
    [InlineData(CompactCompression.Brotli)]
    [InlineData(CompactCompression.Zstd)]
    [InlineData(CompactCompression.Auto)]
    public void Compression_RoundTripsAndNeverGrowsThePayload(CompactCompression compression)
    {
        var tiny = CompactTestSupport.Encode(Schema, "All", """{"i32":1}""", compression);
        Assert.Equal(CompactTestSupport.Encode(Schema, "All", """{"i32":1}"""), tiny);
        var repetitive = "{\"s\":\"" + new string('x', 2000) + "\"}";
        var compressed = CompactTestSupport.Encode(Schema, "All", repetitive, compression);
        Assert.True(compressed.Length < 100, $"{compressed.Length} bytes");
        Assert.Equal(CompactTestSupport.Normalize(repetitive), CompactTestSupport.Decode(Schema, compressed));
    }

    private static JsonNode? Canonical(string json)
    {
        // Timestamps come back normalized to UTC offsets and floats as shortest round-trip text: compare values.
        var node = JsonNode.Parse(json);
        Normalize(node);
        return node;
    }

    private static void Normalize(JsonNode? node)
    {
        switch (node)
        {
            case JsonObject obj:
                foreach (var (name, child) in obj.ToList())
                {
                    if (name == "ts" && child is JsonValue ts)
                    {
                        obj[name] = DateTimeOffset.Parse(ts.GetValue<string>(), CultureInfo.InvariantCulture).UtcTicks;
                    }
                    else if (name == "f32" && child is JsonValue f32)
                    {
                        obj[name] = (double)f32.GetValue<float>();
                    }
                    else
                    {
                        Normalize(child);
                    }
                }

                break;
            case JsonArray array:
                foreach (var child in array)
                {
                    Normalize(child);
                }

                break;
        }
    }
}

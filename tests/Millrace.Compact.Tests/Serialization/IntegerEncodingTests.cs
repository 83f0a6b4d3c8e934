using System.Buffers;
using Millrace.Compact.Schema;
using Millrace.Compact.Serialization;
using Millrace.Compact.Wire;

namespace Millrace.Compact.Tests;

public enum Direction : sbyte
{
    Down = -1,
    Up = 1,
}

[CompactSchema(20)]
public partial class Counter
{
    [Field(1, Encoding = IntegerEncoding.TwosComplement)] public long Id { get; set; }

    [Field(2, Encoding = IntegerEncoding.TwosComplement)] public int? Count { get; set; }

    [Field(3, Encoding = IntegerEncoding.TwosComplement)] public List<long>? Ids { get; set; }

    [Field(4, Encoding = IntegerEncoding.TwosComplement)] public Dictionary<string, int>? Scores { get; set; }

    [Field(5, Encoding = IntegerEncoding.TwosComplement)] public Direction? Direction { get; set; }

    [Field(6)] public long ZigZag { get; set; }
}

public class IntegerEncodingTests
{
    private const string CounterSchema = """
        {"types":[{"name":"Counter","id":20,"fields":[
          {"name":"id","index":1,"type":"int64","encoding":"twos-complement"},
          {"name":"count","index":2,"type":"int32","encoding":"twos-complement"},
          {"name":"ids","index":3,"type":"list<int64>","encoding":"twos-complement"},
          {"name":"scores","index":4,"type":"map<string,int32>","encoding":"twos-complement"},
          {"name":"direction","index":5,"type":"int32","encoding":"twos-complement"},
          {"name":"zigZag","index":6,"type":"int64","encoding":"zigzag"}]}]}
        """;

    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse(CounterSchema);

    private static byte[] Serialize(Counter value)
    {
        var output = new ArrayBufferWriter<byte>();
        CompactSerializer.Serialize(value, output);
        return output.WrittenSpan.ToArray();
    }

    [Fact]
    public void TwosComplement_IsAPlainVarint_InTypedAndRuntimeSchemas()
    {
        var value = new Counter { Id = 64, Count = -1, Ids = [1, 200], Scores = new() { ["a"] = 5 }, Direction = Direction.Down, ZigZag = 64 };
        const string Hex = "010014"
            + "0440"                              // id 64: one byte (zigzag would take two, 80 01)
            + "08" + "FFFFFFFFFFFFFFFFFF01"       // count -1: the 64-bit two's complement, 10 bytes
            + "0F04" + "02" + "01" + "C801"       // ids: count 2, then 1 and 200
            + "1304" + "01" + "0161" + "05"       // scores: count 1, "a", 5
            + "14" + "FFFFFFFFFFFFFFFFFF01"       // direction Down (-1)
            + "18" + "8001";                      // zigZag 64: zigzag 128
        var bytes = Serialize(value);
        Assert.Equal(Hex, Convert.ToHexString(bytes));

        const string Json = """{"id":64,"count":-1,"ids":[1,200],"scores":{"a":5},"direction":-1,"zigZag":64}""";
        Assert.Equal(Hex, Convert.ToHexString(CompactTestSupport.Encode(Schema, "Counter", Json)));
        Assert.Equal(Json, CompactTestSupport.Decode(Schema, bytes));

        var read = CompactSerializer.Deserialize<Counter>(bytes);
        Assert.Equal((64L, -1, 200L, 5, Direction.Down, 64L), (read.Id, read.Count, read.Ids![1], read.Scores!["a"], read.Direction, read.ZigZag));

        var described = CompactInspector.Describe(bytes);
        Assert.Contains("1 Varint: 64 (zigzag 32)\n", described, StringComparison.Ordinal);
        Assert.Contains("2 Varint: 18446744073709551615 (zigzag -9223372036854775808, two's complement -1)\n", described, StringComparison.Ordinal);
    }

    [Fact]
    public void RandomValues_RoundTrip_ThroughBothPaths_ToTheSameBytes()
    {
        var random = new Random(16);
        long[] edges = [0, 1, -1, 63, 64, 127, 128, 8191, 8192, 16383, 16384, long.MaxValue, long.MinValue, int.MaxValue, int.MinValue];
        for (var i = 0; i < 500; i++)
        {
            var id = i < edges.Length ? edges[i] : random.NextInt64(long.MinValue, long.MaxValue) >> random.Next(64);
            var count = i < edges.Length ? (int)Math.Clamp(edges[i], int.MinValue, int.MaxValue) : random.Next(int.MinValue, int.MaxValue) >> random.Next(32);
            var value = new Counter { Id = id, Count = count, Ids = [id, -id, count], Scores = new() { ["k"] = count } };
            var bytes = Serialize(value);

            var read = CompactSerializer.Deserialize<Counter>(bytes);
            Assert.Equal((value.Id, value.Count), (read.Id, read.Count));
            Assert.Equal(value.Ids, read.Ids);
            Assert.Equal(value.Scores, read.Scores);

            var json = CompactTestSupport.Decode(Schema, bytes);
            Assert.Equal(Convert.ToHexString(bytes), Convert.ToHexString(CompactTestSupport.Encode(Schema, "Counter", json)));
        }
    }

    [Theory]
    [InlineData("0880808080808001")]      // 2^42: beyond int32
    [InlineData("08FFFFFFFF7F")]          // 2^35 - 1: beyond int32, and not a sign extension
    [InlineData("148080808008")]          // direction 2^31: beyond sbyte
    public void AValueBeyondTheMembersRange_IsALocatedFormatError(string field)
    {
        var bytes = Convert.FromHexString("010014" + field);
        var typed = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Counter>(bytes));
        Assert.Equal(1, typed.ByteOffset); // the value, after the key (offsets count body bytes)
        if (field.StartsWith("08", StringComparison.Ordinal))
        {
            Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, bytes));
        }
    }

    [Fact]
    public void EveryTruncationAndCorruption_RaisesCompactFormatExceptionOnly()
    {
        var bytes = Serialize(new Counter { Id = 300, Count = -5, Ids = [1, -1], Scores = new() { ["a"] = -7 }, Direction = Direction.Up });
        for (var length = 0; length < bytes.Length; length++)
        {
            // A cut between two fields leaves a shorter record that reads: the frame has no body length to check.
            var typed = Record.Exception(() => CompactSerializer.Deserialize<Counter>(bytes.AsMemory(0, length)));
            Assert.True(typed is null or CompactFormatException, typed?.ToString());
            var json = Record.Exception(() => CompactTestSupport.Decode(Schema, bytes[..length]));
            Assert.True(json is null or CompactFormatException, json?.ToString());
        }

        var random = new Random(7);
        for (var i = 0; i < 2_000; i++)
        {
            var corrupt = (byte[])bytes.Clone();
            corrupt[random.Next(corrupt.Length)] = (byte)random.Next(256);
            var exception = Record.Exception(() => CompactSerializer.Deserialize<Counter>(corrupt));
            Assert.True(exception is null or CompactFormatException, exception?.ToString());
            exception = Record.Exception(() => CompactTestSupport.Decode(Schema, corrupt));
            Assert.True(exception is null or CompactFormatException, exception?.ToString());
        }
    }

    [Theory]
    [InlineData("""{"name":"s","index":1,"type":"string","encoding":"twos-complement"}""", "$.types[0].fields[0] (T.s): an encoding other than zigzag applies to int32 and int64 values")]
    [InlineData("""{"name":"u","index":1,"type":"list<uint64>","encoding":"twos-complement"}""", "$.types[0].fields[0] (T.u): an encoding other than zigzag")]
    [InlineData("""{"name":"n","index":1,"type":"int64","encoding":"plain"}""", "$.types[0].fields[0].encoding: expected \"zigzag\" or \"twos-complement\"")]
    public void AnEncodingTheTypeCannotTake_IsASchemaError(string field, string message)
    {
        var exception = Assert.Throws<FormatException>(() => CompactSchemaSet.Parse($$"""{"types":[{"name":"T","id":1,"fields":[{{field}}]}]}"""));
        Assert.StartsWith(message, exception.Message, StringComparison.Ordinal);
    }
}

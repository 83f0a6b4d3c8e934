using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Snbt;

public class SnbtTests
{
    public static TheoryData<string, NbtTag> Values => new()
    {
        { "1b", new NbtByte(1) },
        { "-3B", new NbtByte(-3) },
        { "true", new NbtByte(1) },
        { "false", new NbtByte(0) },
        { "7s", new NbtShort(7) },
        { "42", new NbtInt(42) },
        { "42i", new NbtInt(42) },
        { "9000000000L", new NbtLong(9000000000L) },
        { "1.5f", new NbtFloat(1.5f) },
        { "1.5F", new NbtFloat(1.5f) },
        { "1.5", new NbtDouble(1.5) },
        { "2d", new NbtDouble(2) },
        { "1e3", new NbtDouble(1000) },
        { ".5", new NbtDouble(0.5) },
        { "0x1F", new NbtInt(31) },
        { "0xFFub", new NbtByte(-1) },
        { "0b101", new NbtInt(5) },
        { "0b", new NbtByte(0) },
        { "1_000_000", new NbtInt(1_000_000) },
        { "255ub", new NbtByte(-1) },
        { "-128sb", new NbtByte(-128) },
        { "65535us", new NbtShort(-1) },
        { "4294967295ui", new NbtInt(-1) },
        { "bool(1)", new NbtByte(1) },
        { "bool(false)", new NbtByte(0) },
        { "hello", new NbtString("hello") },
        { "\"a \\\"q\\\" b\"", new NbtString("a \"q\" b") },
        { "'it''s'".Replace("''", "\\'", StringComparison.Ordinal), new NbtString("it's") },
        { "\"\\x41\\u00e9\\U0001F600\\n\"", new NbtString("Aé\U0001F600\n") },
        { "1.2.3", new NbtString("1.2.3") },
        { "[B;1b,2b,-1b]", new NbtByteArray([1, 2, 255]) },
        { "[I;1,-2]", new NbtIntArray([1, -2]) },
        { "[L;1L,2l]", new NbtLongArray([1, 2]) },
        { "[]", new NbtList() },
        { "[1,2,3]", new NbtList([new NbtInt(1), new NbtInt(2), new NbtInt(3)]) },
        { "{}", new NbtCompound() },
        { "{ a : 1b , \"b c\":\"d\", }", new NbtCompound { { "a", new NbtByte(1) }, { "b c", new NbtString("d") } } },
        { "uuid(\"f81d4fae-7dec-11d0-a765-00a0c91e6bf6\")", new NbtIntArray([unchecked((int)0xf81d4fae), 0x7dec11d0, unchecked((int)0xa76500a0), unchecked((int)0xc91e6bf6)]) },
    };

    [Theory]
    [MemberData(nameof(Values))]
    public void Parse_ReadsBothSyntaxes(string snbt, NbtTag expected) => Assert.Equal(expected, SnbtParser.Parse(snbt));

    [Fact]
    public void MixedList_IsHeterogeneous()
    {
        var list = Assert.IsType<NbtList>(SnbtParser.Parse("[1, \"two\", {three: 3b}]"));
        Assert.True(list.IsMixed);
        Assert.Equal("[1,\"two\",{three:3b}]", SnbtWriter.Write(list));
    }

    [Theory]
    [InlineData("{a:1", "Expected '}'")]
    [InlineData("{a 1}", "Expected ':'")]
    [InlineData("[1,2", "Expected ']'")]
    [InlineData("\"abc", "Unterminated string")]
    [InlineData("\"\\q\"", "Unknown escape")]
    [InlineData("300b", "out of its type's range")]
    [InlineData("-1ub", "out of its type's range")]
    [InlineData("1e400", "out of its type's range")]
    [InlineData("-1e400d", "out of its type's range")]
    [InlineData("3.5e38f", "out of its type's range")]
    [InlineData("[B;1,2]", "cannot be an element of a [B;] array")]
    [InlineData("{a:1} x", "Unexpected text")]
    [InlineData("uuid(12)", "uuid() takes")]
    [InlineData("", "Expected a value")]
    public void Parse_ReportsErrorsWithOffsets(string snbt, string reason)
    {
        var error = Assert.Throws<NbtFormatException>(() => SnbtParser.Parse(snbt));
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        Assert.InRange(error.ByteOffset, 0, snbt.Length);
    }

    // A finite literal past its type's range was rounded to infinity; the infinities themselves are literals of their own.
    [Fact]
    public void Parse_TheInfinitiesAreLiterals()
    {
        Assert.Equal(new NbtDouble(double.PositiveInfinity), SnbtParser.Parse("Infinityd"));
        Assert.Equal(new NbtFloat(float.NegativeInfinity), SnbtParser.Parse("-Infinityf"));
        Assert.Equal(new NbtFloat(3.4e38f), SnbtParser.Parse("3.4e38f"));
    }

    // A file's SNBT: bytes that are not UTF-8 were replaced by U+FFFD, and error offsets counted characters where the
    // tool says bytes.
    [Fact]
    public void ParseUtf8_RefusesBytesThatAreNotUtf8_AndLocatesErrorsInBytes()
    {
        byte[] notUtf8 = [0x7B, 0x61, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D]; // {a:"", with two bytes no UTF-8 sequence starts with
        var bad = Assert.Throws<NbtFormatException>(() => SnbtParser.ParseUtf8(notUtf8));
        Assert.Equal(NbtErrorCodes.BadEncoding, bad.Code);
        Assert.Equal(4, bad.ByteOffset);

        var text = "{\"ééé\":1,b:}";
        var error = Assert.Throws<NbtFormatException>(() => SnbtParser.ParseUtf8(System.Text.Encoding.UTF8.GetBytes(text)));
        Assert.Equal(14, error.ByteOffset);
        Assert.Equal(11, Assert.Throws<NbtFormatException>(() => SnbtParser.Parse(text)).ByteOffset);
        Assert.Equal(SnbtParser.Parse("{\"ééé\":1}"), SnbtParser.ParseUtf8(System.Text.Encoding.UTF8.GetBytes("{\"ééé\":1}")));
    }

    // Editors save UTF-8 with a byte order mark: it was a syntax error at byte 0.
    [Fact]
    public void ParseUtf8_ReadsPastAByteOrderMark_AndCountsItInOffsets()
    {
        Assert.Equal(SnbtParser.Parse("{a:1b}"), SnbtParser.ParseUtf8([0xEF, 0xBB, 0xBF, .. "{a:1b}"u8]));
        Assert.Equal(3 + "{a:1b".Length, Assert.Throws<NbtFormatException>(() => SnbtParser.ParseUtf8([0xEF, 0xBB, 0xBF, .. "{a:1b"u8])).ByteOffset);
    }

    [Fact]
    public void Parse_NestingBeyondTheLimit_IsAnError()
    {
        var deep = new string('[', 10_000) + new string(']', 10_000);
        Assert.Contains("deeper", Assert.Throws<NbtFormatException>(() => SnbtParser.Parse(deep)).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Write_CompactAndPretty()
    {
        var tag = new NbtCompound
        {
            { "name", new NbtString("Bananrama") },
            { "needs quotes", new NbtList([new NbtFloat(0.1f), new NbtFloat(2f)]) },
            { "d", new NbtDouble(double.NaN) },
            { "q", new NbtString("say \"hi\"") },
        };
        Assert.Equal("{name:\"Bananrama\",\"needs quotes\":[0.1f,2.0f],d:NaNd,q:'say \"hi\"'}", SnbtWriter.Write(tag));
        Assert.Equal("{\n    name: \"Bananrama\",\n    \"needs quotes\": [\n        0.1f,\n        2.0f\n    ],\n    d: NaNd,\n    q: 'say \"hi\"'\n}", SnbtWriter.Write(tag, pretty: true));
        Assert.Equal(tag, SnbtParser.Parse(SnbtWriter.Write(tag, pretty: true)));
    }

    [Fact]
    public void BigTest_SnbtIsStable()
    {
        var snbt = NbtSamples.BigTest().Root.ToString();
        Assert.Equal(NbtSamples.BigTest().Root, SnbtParser.Parse(snbt));
        Assert.Equal(snbt, SnbtParser.Parse(snbt).ToString());
    }
}

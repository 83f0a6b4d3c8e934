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
    public void Parse_ReadsTheModernSyntaxByDefault(string snbt, NbtTag expected) => Assert.Equal(expected, SnbtParser.Parse(snbt));

    [Fact]
    public void MixedList_IsHeterogeneous()
    {
        var list = Assert.IsType<NbtList>(SnbtParser.Parse("[1, \"two\", {three: 3b}]"));
        Assert.True(list.IsMixed);
        Assert.Equal("[1,\"two\",{three:3b}]", SnbtWriter.Write(list));
    }

    [Theory]
    [InlineData("{a:1", "Expected ',' or '}'")]
    [InlineData("{a 1}", "Expected ':' after the name")]
    [InlineData("[1,2", "Expected ',' or ']'")]
    [InlineData("\"abc", "Expected \" to close the string that starts at offset 0")]
    [InlineData("\"\\q\"", "Unknown escape")]
    [InlineData("300b", "out of range for a signed byte")]
    [InlineData("256ub", "out of range for an unsigned byte")]
    [InlineData("-1ub", "A negative number must be signed")]
    [InlineData("07", "Leading zeros are not allowed")]
    [InlineData("0x", "Expected hex digits after '0x'")]
    [InlineData("1_", "An underscore may only stand between digits")]
    [InlineData("1e400", "rounds to infinity")]
    [InlineData("-1e400d", "rounds to infinity")]
    [InlineData("3.5e38f", "rounds to infinity")]
    [InlineData("[B;1s]", "A short cannot be an element of a [B;] array")]
    [InlineData("[I;true]", "Expected an integer or ']' in a [I;] array")]
    [InlineData("{a:1} x", "Expected the end of the input after the value")]
    [InlineData("uuid(12)", "uuid() takes")]
    [InlineData("bool(\"x\")", "bool() takes a number or a boolean")]
    [InlineData("foo(1)", "No function foo() of 1 argument(s)")]
    [InlineData("{\"\":1}", "A name may not be empty")]
    [InlineData("\"\\N{NO SUCH NAME}\"", "No character is named 'NO SUCH NAME'")]
    [InlineData("1abc", "Expected the end of the input after the value")]
    [InlineData("", "Expected a value")]
    public void Parse_ReportsErrorsWithOffsets(string snbt, string reason)
    {
        var error = Assert.Throws<NbtFormatException>(() => SnbtParser.Parse(snbt));
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        Assert.InRange(error.ByteOffset, 0, snbt.Length);
    }

    // Neither game has a NaN or infinity literal: both read the words as strings. 1.21.4 read a literal past its type's
    // range as infinity (Java's parse), 1.21.5 refuses it; the writer spells infinity only where the game reads it.
    [Fact]
    public void Parse_NonFiniteNumbers_AreWhatEachGameMadeOfThem()
    {
        var legacy = new NbtReaderOptions { SnbtSyntax = SnbtSyntax.Legacy };
        Assert.Equal(new NbtString("Infinityd"), SnbtParser.Parse("Infinityd"));
        Assert.Equal(new NbtString("NaN"), SnbtParser.Parse("NaN", legacy));
        Assert.Equal(new NbtFloat(float.PositiveInfinity), SnbtParser.Parse("1e39f", legacy));
        Assert.Equal(new NbtDouble(double.NegativeInfinity), SnbtParser.Parse("-1e309d", legacy));
        Assert.Equal(new NbtFloat(3.4e38f), SnbtParser.Parse("3.4e38f"));

        var infinities = new NbtCompound { { "f", new NbtFloat(float.PositiveInfinity) }, { "d", new NbtDouble(double.NegativeInfinity) } };
        Assert.Equal("{f:1e39f,d:-1e309d}", SnbtWriter.Write(infinities, syntax: SnbtSyntax.Legacy));
        Assert.Equal(infinities, SnbtParser.Parse(SnbtWriter.Write(infinities, syntax: SnbtSyntax.Legacy), legacy));
        Assert.Contains("an infinity, which the 1.21.5 grammar refuses", Assert.Throws<ArgumentException>(() => SnbtWriter.Write(infinities)).Message, StringComparison.Ordinal);
        Assert.Contains("NaN, which no SNBT spells", Assert.Throws<ArgumentException>(() => SnbtWriter.Write(new NbtDouble(double.NaN), syntax: SnbtSyntax.Legacy)).Message, StringComparison.Ordinal);
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
            { "q", new NbtString("say \"hi\"") },
        };
        Assert.Equal("{name:\"Bananrama\",\"needs quotes\":[0.1f,2.0f],q:'say \"hi\"'}", SnbtWriter.Write(tag));
        Assert.Equal("{\n    name: \"Bananrama\",\n    \"needs quotes\": [\n        0.1f,\n        2.0f\n    ],\n    q: 'say \"hi\"'\n}", SnbtWriter.Write(tag, pretty: true));
        Assert.Equal(tag, SnbtParser.Parse(SnbtWriter.Write(tag, pretty: true)));
    }

    // A value the chosen game cannot read back is refused with its path, never written as something else; ToString,
    // for display, shows it as the game's printer does.
    [Fact]
    public void Write_RefusesWhatTheGameCannotReadBack_WithItsPath()
    {
        var tree = new NbtCompound { { "a", new NbtList([new NbtCompound { { "d", new NbtDouble(double.NaN) } }]) } };
        Assert.Contains("NaN, which no SNBT spells (Minecraft reads NaN as a string) at a[0].d", Assert.Throws<ArgumentException>(() => SnbtWriter.Write(tree)).Message, StringComparison.Ordinal);
        Assert.Equal("{a:[{d:NaNd}]}", tree.ToString());

        var emptyName = new NbtCompound { { string.Empty, new NbtInt(1) } };
        Assert.Contains("an empty name", Assert.Throws<ArgumentException>(() => SnbtWriter.Write(emptyName, syntax: SnbtSyntax.Legacy)).Message, StringComparison.Ordinal);

        var mixed = NbtList.WithMixedTypes();
        mixed.Add(new NbtInt(1));
        mixed.Add(new NbtString("a"));
        Assert.Equal("[1,\"a\"]", SnbtWriter.Write(mixed));
        Assert.Contains("a list of mixed types", Assert.Throws<ArgumentException>(() => SnbtWriter.Write(mixed, syntax: SnbtSyntax.Legacy)).Message, StringComparison.Ordinal);

        var lone = new NbtString("a\uD83Db");
        Assert.Equal("\"a\\uD83Db\"", SnbtWriter.Write(lone));
        Assert.Equal(lone, SnbtParser.Parse(SnbtWriter.Write(lone)));
        Assert.Contains("an unpaired surrogate (U+D83D)", Assert.Throws<ArgumentException>(() => SnbtWriter.Write(lone, syntax: SnbtSyntax.Legacy)).Message, StringComparison.Ordinal);

        // Control characters: escaped as the game's printer escapes them in 1.21.5; as they are before, where no escape exists.
        var controls = new NbtString("a\n\t\u0001");
        Assert.Equal("\"a\\n\\t\\x01\"", SnbtWriter.Write(controls));
        Assert.Equal("\"a\n\t\u0001\"", SnbtWriter.Write(controls, syntax: SnbtSyntax.Legacy));
    }

    [Fact]
    public void Options_RefuseAnUndefinedSyntax()
    {
        Assert.Throws<ArgumentException>(() => SnbtParser.Parse("1b", new NbtReaderOptions { SnbtSyntax = (SnbtSyntax)7 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => SnbtWriter.Write(new NbtInt(1), syntax: (SnbtSyntax)7));
    }

    [Fact]
    public void BigTest_SnbtIsStable()
    {
        var snbt = NbtSamples.BigTest().Root.ToString();
        Assert.Equal(NbtSamples.BigTest().Root, SnbtParser.Parse(snbt));
        Assert.Equal(snbt, SnbtParser.Parse(snbt).ToString());
    }

    [Fact]
    public void WriteTo_WritesWhatWriteReturns_AsItIsFormatted()
    {
        var tag = new NbtCompound();
        for (var i = 0; i < 5_000; i++)
        {
            tag.Add($"entry {i}", new NbtList([new NbtInt(i), new NbtInt(-i)]));
        }

        foreach (var (pretty, syntax) in new[] { (true, SnbtSyntax.Modern), (false, SnbtSyntax.Legacy) })
        {
            using var output = new ChunkCountingWriter();
            SnbtWriter.WriteTo(tag, output, pretty, syntax);
            Assert.Equal(SnbtWriter.Write(tag, pretty, syntax), output.ToString());
            Assert.True(output.Chunks > 5, $"{output.Chunks} chunks: the text was held whole");
        }

        var refused = new NbtCompound { { "a", new NbtInt(1) }, { "b", new NbtDouble(double.NaN) } };
        Assert.Throws<ArgumentException>(() => SnbtWriter.WriteTo(refused, TextWriter.Null));
    }

    private sealed class ChunkCountingWriter : StringWriter
    {
        public int Chunks { get; private set; }

        public override void Write(ReadOnlySpan<char> buffer)
        {
            Chunks++;
            base.Write(buffer);
        }
    }
}

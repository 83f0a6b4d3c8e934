using System.Buffers;
using System.Text;
using Millrace.Compact.Wire;

namespace Millrace.Compact.Tests.Wire;

public class CompactWriterTests
{
    // Lengths around the 42-char boundary below which a string's length byte is reserved before encoding.
    public static TheoryData<string> Strings()
    {
        // Distinct: at length 0 every kind is the empty string, which xunit would run once and report as a duplicate.
        var data = new TheoryData<string>();
        var lengths = new[] { 0, 1, 41, 42, 43, 63, 64, 127, 128, 200 };
        foreach (var text in lengths.SelectMany(length => new[]
        {
            new string('a', length),
            new string('é', length),
            new string('€', length),
            string.Concat(Enumerable.Repeat("😀", length / 2)) + (length % 2 == 1 ? "x" : string.Empty),
        }).Distinct())
        {
            data.Add(text);
        }

        // ASCII runs before other characters: the ASCII path stops part way and the UTF-8 encoder starts over.
        data.Add("plain ascii, then é");
        data.Add(new string('a', 40) + "€");
        data.Add(new string('a', 100) + "😀" + new string('b', 20));
        data.Add("lone \uD800 surrogate");
        data.Add(new string('\uDC00', 42));
        return data;
    }

    // A lone surrogate has no UTF-8: written as U+FFFD it would read back as another string. Short and long strings (the
    // two paths), alone, after ASCII and after other text. (Built here: a test case's data would carry U+FFFD instead.)
    [Fact]
    public void WriteString_RefusesALoneSurrogate()
    {
        foreach (var text in new[] { "\ud800", "abc\udc00", "é\ud800x", "\ud83d" })
        {
            foreach (var padded in new[] { text, new string('a', 100) + text, text + new string('é', 100) })
            {
                Assert.ThrowsAny<ArgumentException>(() => Write((ref CompactWriter w) => w.WriteString(padded)));
                Assert.ThrowsAny<ArgumentException>(() => Write((ref CompactWriter w) => w.WriteStringField(3, padded)));
            }
        }
    }

    [Theory]
    [MemberData(nameof(Strings))]
    public void WriteString_WritesTheVarintByteLengthThenUtf8(string text)
    {
        var utf8 = Encoding.UTF8.GetBytes(text);
        var expected = Varint(utf8.Length).Concat(utf8).ToArray();

        Assert.Equal(expected, Write((ref CompactWriter w) => w.WriteString(text)));
        Assert.Equal(Varint((7 << 2) | 3).Concat(expected).ToArray(), Write((ref CompactWriter w) => w.WriteStringField(7, text)));

        var reader = new CompactReader(expected);
        Assert.Equal(Encoding.UTF8.GetString(utf8), reader.ReadString(int.MaxValue));
        Assert.True(reader.End);
    }

    [Theory]
    [InlineData(1, 0L)]
    [InlineData(15, -1L)]
    [InlineData(16, 300L)]
    [InlineData(int.MaxValue, long.MinValue)]
    [InlineData(1000, long.MaxValue)]
    public void KeyedIntegerWrites_EqualAKeyThenTheValue(int index, long value)
    {
        Assert.Equal(
            Write((ref CompactWriter w) => { w.WriteKey(index, WireType.Varint); w.WriteSigned(value); }),
            Write((ref CompactWriter w) => w.WriteSignedField(index, value)));
        Assert.Equal(
            Write((ref CompactWriter w) => { w.WriteKey(index, WireType.Varint); w.WriteVarint((ulong)value); }),
            Write((ref CompactWriter w) => w.WriteVarintField(index, (ulong)value)));
    }

    private delegate void WriteAction(ref CompactWriter writer);

    private static byte[] Write(WriteAction write)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new CompactWriter(output);
        write(ref writer);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    private static byte[] Varint(long value)
    {
        var bytes = new byte[10];
        return bytes[..Millrace.Varint.Write(bytes, (ulong)value)];
    }
}

using System.Buffers;
using System.Text;

namespace Millrace.Core.Tests;

public class Utf8TextTests
{
    [Theory]
    [InlineData(new byte[0], -1)]
    [InlineData(new byte[] { (byte)'a', 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80 }, -1)]
    [InlineData(new byte[] { (byte)'a', 0xFF }, 1)]
    [InlineData(new byte[] { (byte)'a', (byte)'b', 0xE2, 0x82 }, 2)] // cut by the end
    [InlineData(new byte[] { 0xC0, 0xAF }, 0)] // overlong
    [InlineData(new byte[] { (byte)'x', 0xED, 0xA0, 0x80 }, 1)] // a surrogate
    [InlineData(new byte[] { (byte)'x', 0x80 }, 1)] // a lone continuation byte
    public void IndexOfInvalid_FindsTheFirstBadByte(byte[] bytes, int expected) =>
        Assert.Equal(expected, Utf8Text.IndexOfInvalid(bytes));

    [Fact]
    public void IndexOfInvalid_AgreesWithDecodingRuneByRune_OnRandomBytesOfEveryLength()
    {
        // Long runs of valid text first, so the bad byte falls past the transcoding scratch's chunks too.
        var random = new Random(16);
        for (var run = 0; run < 2_000; run++)
        {
            var text = Encoding.UTF8.GetBytes(string.Concat(Enumerable.Range(0, random.Next(0, 900)).Select(_ => Pieces[random.Next(Pieces.Length)])));
            var bytes = text.Concat(Enumerable.Range(0, random.Next(0, 4)).Select(_ => (byte)random.Next(256))).ToArray();
            Assert.Equal(RuneByRune(bytes), Utf8Text.IndexOfInvalid(bytes));
        }
    }

    private static readonly string[] Pieces = ["a", "é", "€", "😀"];

    private static int RuneByRune(ReadOnlySpan<byte> bytes)
    {
        for (var offset = 0; offset < bytes.Length;)
        {
            if (Rune.DecodeFromUtf8(bytes[offset..], out _, out var length) != OperationStatus.Done)
            {
                return offset;
            }

            offset += length;
        }

        return -1;
    }
}

using Millrace.Compact.Wire;

namespace Millrace.Compact.Tests.Wire;

// Pins the code, reason and offset of every failure the reader turns a cursor outcome into: these are the
// compact module's words, whatever Core's SpanCursor reports underneath.
public class CompactReaderTests
{
    private const int Base = 100;

    private static readonly byte[] ElevenByteVarint = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];

    [Fact]
    public void ReadVarint_CutOff_TruncatedAtTheVarint()
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader([0x80, 0x80], Base).ReadVarint());

        AssertError(error, CompactErrorCodes.Truncated, "The payload ends inside a varint.", Base);
    }

    [Fact]
    public void ReadVarint_Overlong_BadEncodingAtTheVarint()
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader(ElevenByteVarint, Base).ReadVarint());

        AssertError(error, CompactErrorCodes.BadEncoding, "Malformed or overlong varint.", Base);
    }

    [Fact]
    public void ReadFixed64_CutOff_TruncatedWithTheBytesNeeded()
    {
        var error = Assert.Throws<CompactFormatException>(() =>
        {
            var reader = new CompactReader([1, 2, 3, 4, 5], Base);
            reader.ReadFixed32();
            reader.ReadFixed64();
        });

        AssertError(error, CompactErrorCodes.Truncated, "The payload ends where 8 more byte(s) were expected.", Base + 4);
    }

    [Fact]
    public void ReadLengthDelimited_Fits_ReturnsTheBytesAndWhereTheyStart()
    {
        var reader = new CompactReader([0x02, 7, 8, 9], Base);

        Assert.Equal(new byte[] { 7, 8 }, reader.ReadLengthDelimited(out var start).ToArray());
        Assert.Equal(Base + 1, start);
        Assert.Equal(1, reader.Remaining);
    }

    [Theory]
    [InlineData(new byte[] { 0x05, 1, 2 }, "Declared length 5 needs more bytes than the 2 that remain.")]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1 }, "Declared length 4294967295 needs more bytes than the 1 that remain.")]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 }, "Declared length 18446744073709551615 needs more bytes than the 0 that remain.")]
    public void ReadLengthDelimited_LongerThanTheInput_BadLengthAtTheLength(byte[] bytes, string reason)
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader(bytes, Base).ReadLengthDelimited(out _));

        AssertError(error, CompactErrorCodes.BadLength, reason, Base);
    }

    [Fact]
    public void ReadLengthDelimited_LengthCutOff_TruncatedAtTheLength()
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader([0x80], Base).ReadLengthDelimited(out _));

        AssertError(error, CompactErrorCodes.Truncated, "The payload ends inside a varint.", Base);
    }

    [Fact]
    public void ReadLengthDelimited_LengthOverlong_BadEncodingAtTheLength()
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader(ElevenByteVarint, Base).ReadLengthDelimited(out _));

        AssertError(error, CompactErrorCodes.BadEncoding, "Malformed or overlong varint.", Base);
    }

    [Fact]
    public void ReadCount_Fits_ReturnsTheCount()
    {
        var reader = new CompactReader([0x03, 1, 2, 3], Base);

        Assert.Equal(3, reader.ReadCount(3, 1));
        Assert.Equal(Base + 1, reader.Offset);
    }

    [Fact]
    public void ReadCount_OverTheLimit_LimitAtTheCount()
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader([0x04, 1, 2, 3, 4], Base).ReadCount(3, 1));

        AssertError(error, CompactErrorCodes.Limit, "A collection of 4 elements exceeds the limit of 3.", Base);
    }

    [Fact]
    public void ReadCount_MoreThanTheBytesHold_BadLengthWithTheBytesAfterTheCount()
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader([0x03, 1, 2, 3, 4, 5], Base).ReadCount(10, 2));

        AssertError(error, CompactErrorCodes.BadLength, "A collection of 3 elements needs more bytes than the 5 that remain.", Base);
    }

    [Fact]
    public void ReadCount_CountCutOff_TruncatedAtTheCount()
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader([0x80, 0x80], Base).ReadCount(10, 1));

        AssertError(error, CompactErrorCodes.Truncated, "The payload ends inside a varint.", Base);
    }

    [Fact]
    public void ReadCount_CountOverlong_BadEncodingAtTheCount()
    {
        var error = Assert.Throws<CompactFormatException>(() => new CompactReader(ElevenByteVarint, Base).ReadCount(10, 1));

        AssertError(error, CompactErrorCodes.BadEncoding, "Malformed or overlong varint.", Base);
    }

    [Theory]
    [InlineData(-1, 1)]
    [InlineData(1, -1)]
    public void ReadCount_NegativeArguments_ThrowArgumentOutOfRange(int maxCount, int minimumElementSize)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new CompactReader([0x01, 0x00]).ReadCount(maxCount, minimumElementSize));
    }

    [Theory]
    [InlineData("role")]
    [InlineData("")]
    [InlineData("zoneinfo/America/Los_Angeles/x")]
    [InlineData("département")]
    [InlineData("a key longer than the thirty-two bytes the cache keeps")]
    public void ReadName_ReadsWhatReadStringReads(string text)
    {
        var bytes = Prefixed(text);

        Assert.Equal(text, new CompactReader(bytes, Base).ReadName(100));
        Assert.Equal(text, new CompactReader(bytes, Base).ReadString(100));
    }

    [Theory]
    [InlineData("id")]
    [InlineData("")]
    [InlineData("thirty-two bytes, the most kept.")]
    [InlineData("thirty-three bytes, one past kept")]
    [InlineData("clé")]
    public void ReadName_ThenTheNextValue_LeavesTheReaderAfterTheName(string text)
    {
        var reader = new CompactReader([.. Prefixed(text), 0x2A], Base);

        Assert.Equal(text, reader.ReadName(100));
        Assert.Equal(42UL, reader.ReadVarint());
        Assert.True(reader.End);
    }

    [Theory]
    [InlineData(new byte[] { 0x03, (byte)'a', (byte)'b' }, 4, CompactErrorCodes.BadLength, "Declared length 3 needs more bytes than the 2 that remain.", Base)]
    [InlineData(new byte[] { 0x02, (byte)'a', 0xFF }, 4, CompactErrorCodes.BadEncoding, null, Base + 1)]
    [InlineData(new byte[] { 0x05, (byte)'a', (byte)'b', (byte)'c', (byte)'d', (byte)'e' }, 4, CompactErrorCodes.Limit, null, Base)]
    [InlineData(new byte[] { 0x03, (byte)'a', (byte)'b', (byte)'c' }, 2, CompactErrorCodes.Limit, null, Base)]
    [InlineData(new byte[] { 0x03, (byte)'a', (byte)'b', (byte)'c' }, 0, CompactErrorCodes.Limit, null, Base)]
    [InlineData(new byte[] { 0x03, (byte)'a', (byte)'b', (byte)'c' }, -1, CompactErrorCodes.Limit, null, Base)]
    [InlineData(new byte[] { 0x83, 0x80, 0x80, 0x80, 0x10, (byte)'a', (byte)'b', (byte)'c' }, 100, CompactErrorCodes.BadLength, null, Base)] // 2^32 + 3, not 3
    public void ReadName_RefusesAsReadStringDoes(byte[] bytes, int maxLength, string code, string? reason, long offset)
    {
        var name = Assert.Throws<CompactFormatException>(() => new CompactReader(bytes, Base).ReadName(maxLength));
        var text = Assert.Throws<CompactFormatException>(() => new CompactReader(bytes, Base).ReadString(maxLength));

        Assert.Equal((text.Code, text.Message, text.ByteOffset), (name.Code, name.Message, name.ByteOffset));
        Assert.Equal(code, name.Code);
        Assert.Equal(offset, name.ByteOffset);
        if (reason is not null)
        {
            AssertError(name, code, reason, offset);
        }
    }

    private static byte[] Prefixed(string text)
    {
        var utf8 = System.Text.Encoding.UTF8.GetBytes(text);
        return [(byte)utf8.Length, .. utf8];
    }

    private static void AssertError(CompactFormatException error, string code, string reason, long offset)
    {
        Assert.Equal(code, error.Code);
        Assert.Equal(reason, error.Reason);
        Assert.Equal(offset, error.ByteOffset);
    }
}

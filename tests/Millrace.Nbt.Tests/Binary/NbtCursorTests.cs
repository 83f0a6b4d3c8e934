using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Binary;

// Pins the code, reason and offset of every failure the cursor turns a Core SpanCursor outcome into: these are the
// NBT module's words, whatever the shared cursor reports underneath.
public class NbtCursorTests
{
    [Fact]
    public void ReadByte_AtTheEnd_TruncatedThere()
    {
        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor([1, 2], NbtFormat.Java, position: 2).ReadByte());

        AssertError(error, NbtErrorCodes.Truncated, "The input ends where 1 more byte(s) were expected.", 2);
    }

    [Fact]
    public void ReadInt64_CutOff_TruncatedWithTheBytesNeeded()
    {
        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor([0, 1, 2, 3, 4], NbtFormat.Bedrock, position: 1).ReadInt64());

        AssertError(error, NbtErrorCodes.Truncated, "The input ends where 8 more byte(s) were expected.", 1);
    }

    [Theory]
    [InlineData(NbtFormat.Java, new byte[] { 0x12, 0x34 }, 0x1234)]
    [InlineData(NbtFormat.Bedrock, new byte[] { 0x34, 0x12 }, 0x1234)]
    public void ReadInt16_ReadsTheFlavoursByteOrder(NbtFormat format, byte[] bytes, int expected)
    {
        var cursor = new NbtCursor(bytes, format);

        Assert.Equal((short)expected, cursor.ReadInt16());
        Assert.Equal(0, cursor.Remaining);
    }

    [Fact]
    public void ReadLength_Negative_BadLengthAtTheLength()
    {
        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor([9, 0xFF, 0xFF, 0xFF, 0xFE], NbtFormat.Java, position: 1).ReadLength(1));

        AssertError(error, NbtErrorCodes.BadLength, "Negative length -2.", 1);
    }

    [Fact]
    public void ReadLength_MoreElementsThanTheBytesHold_BadLengthWithTheBytesAfterTheLength()
    {
        byte[] bytes = [0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8];

        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor(bytes, NbtFormat.Java).ReadLength(4));

        AssertError(error, NbtErrorCodes.BadLength, "Declared length 3 needs more bytes than the 8 that remain.", 0);
    }

    [Fact]
    public void ReadLength_ExactlyFits_ReturnsTheLength()
    {
        var cursor = new NbtCursor([0, 0, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8], NbtFormat.Java);

        Assert.Equal(2, cursor.ReadLength(4));
        Assert.Equal(4, cursor.Position);
    }

    [Fact]
    public void ReadStringBytes_LongerThanTheInput_BadLengthAtTheLength()
    {
        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor([7, 0x00, 0x05, (byte)'a', (byte)'b'], NbtFormat.Java, position: 1).ReadStringBytes());

        AssertError(error, NbtErrorCodes.BadLength, "Declared length 5 needs more bytes than the 2 that remain.", 1);
    }

    [Fact]
    public void ReadStringBytes_BedrockNetworkHugeVarintLength_BadLengthCappedAtIntMax()
    {
        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor([0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1], NbtFormat.BedrockNetwork).ReadStringBytes());

        AssertError(error, NbtErrorCodes.BadLength, "Declared length 2147483647 needs more bytes than the 1 that remain.", 0);
    }

    [Fact]
    public void ReadInt32_BedrockNetworkVarintCutOff_TruncatedAtTheEndOfTheInput()
    {
        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor([5, 0x80, 0x80], NbtFormat.BedrockNetwork, position: 1).ReadInt32());

        AssertError(error, NbtErrorCodes.Truncated, "The input ends where 1 more byte(s) were expected.", 3);
    }

    [Fact]
    public void ReadInt64_BedrockNetworkVarintOverlong_BadEncodingAtTheVarint()
    {
        byte[] bytes = [5, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];

        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor(bytes, NbtFormat.BedrockNetwork, position: 1).ReadInt64());

        AssertError(error, NbtErrorCodes.BadEncoding, "Malformed or overlong varint.", 1);
    }

    [Fact]
    public void ReadInt32_BedrockNetworkZigZag_Decodes()
    {
        var cursor = new NbtCursor([0x03], NbtFormat.BedrockNetwork);

        Assert.Equal(-2, cursor.ReadInt32());
    }

    [Fact]
    public void ReadTagType_Unknown_UnknownTagAtTheId()
    {
        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor([1, 13], NbtFormat.Java, position: 1).ReadTagType());

        AssertError(error, NbtErrorCodes.UnknownTag, "Unknown tag type 13.", 1);
    }

    [Fact]
    public void Take_MoreThanRemain_TruncatedAtThePosition()
    {
        var error = Assert.Throws<NbtFormatException>(() => new NbtCursor([1, 2, 3], NbtFormat.Java, position: 1).Take(3));

        AssertError(error, NbtErrorCodes.Truncated, "The input ends where 3 more byte(s) were expected.", 1);
    }

    [Fact]
    public void MinimumSize_ListOfInts_OneByteOnTheBedrockNetworkOnly()
    {
        Assert.Equal(4, new NbtCursor([], NbtFormat.Java).MinimumSize(NbtTagType.Int));
        Assert.Equal(1, new NbtCursor([], NbtFormat.BedrockNetwork).MinimumSize(NbtTagType.Int));
    }

    private static void AssertError(NbtFormatException error, string code, string reason, long offset)
    {
        Assert.Equal(code, error.Code);
        Assert.Equal(reason, error.Reason);
        Assert.Equal(offset, error.ByteOffset);
    }

    // The README: input Minecraft reads in a form no encoder writes is read as Minecraft reads it, and written in the
    // canonical form: an overlong Modified UTF-8 sequence (c1 81 for 'A'), a Bedrock network varint longer than it needs.
    [Fact]
    public void OverlongModifiedUtf8_IsReadAsJavaReadsIt_AndWrittenCanonically()
    {
        byte[] overlong = [0x0A, 0x00, 0x00, 0x08, 0x00, 0x01, (byte)'s', 0x00, 0x02, 0xC1, 0x81, 0x00];
        var document = NbtDocument.Read(overlong);
        Assert.Equal("A", ((Millrace.Nbt.Tags.NbtCompound)document.Root).Get<Millrace.Nbt.Tags.NbtString>("s").Value);
        Assert.Equal([0x0A, 0x00, 0x00, 0x08, 0x00, 0x01, (byte)'s', 0x00, 0x01, (byte)'A', 0x00], document.ToArray());
    }

    [Fact]
    public void OverlongBedrockNetworkVarint_IsRead_AndWrittenCanonically()
    {
        // A compound named "" holding the int "a" = 0, its zigzag varint written 80 00 instead of 00.
        byte[] overlong = [0x0A, 0x00, 0x03, 0x01, (byte)'a', 0x80, 0x00, 0x00];
        var options = new NbtReaderOptions { Format = NbtFormat.BedrockNetwork };
        var document = NbtDocument.Read(overlong, NbtCompression.None, options);
        Assert.Equal(0, ((Millrace.Nbt.Tags.NbtCompound)document.Root).Get<Millrace.Nbt.Tags.NbtInt>("a").Value);
        Assert.Equal([0x0A, 0x00, 0x03, 0x01, (byte)'a', 0x00, 0x00], document.ToArray(new NbtWriterOptions { Format = NbtFormat.BedrockNetwork }));
    }
}

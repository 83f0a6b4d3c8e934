using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

public class MalformedInputTests
{
    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse(CompactTestSupport.UserSchema);

    private static readonly byte[] Sample = CompactTestSupport.Encode(Schema, "User", """
        {"id":12345,"name":"Ann","active":true,"tags":["a","bc","def"],"owner":{"id":2,"name":"Bo"},"metadata":{"k":"v","x":"y"}}
        """);

    [Fact]
    public void EveryTruncation_RaisesCompactFormatExceptionOnly()
    {
        for (var length = 0; length < Sample.Length; length++)
        {
            var exception = Record.Exception(() => CompactTestSupport.Decode(Schema, Sample[..length]));
            if (exception is null)
            {
                // A cut between two fields is a valid record with fewer fields.
                continue;
            }

            Assert.IsType<CompactFormatException>(exception);
        }
    }

    [Fact]
    public void TruncationInsideAValue_NamesTheField()
    {
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, Sample[..^3]));
        Assert.StartsWith("metadata", error.Path, StringComparison.Ordinal);
    }

    [Fact]
    public void RandomBytes_NeverRaiseAnythingElse()
    {
        var random = new Random(3);
        for (var i = 0; i < 20_000; i++)
        {
            var bytes = (byte[])Sample.Clone();
            for (var flips = random.Next(1, 6); flips > 0; flips--)
            {
                bytes[random.Next(bytes.Length)] = (byte)random.Next(256);
            }

            var exception = Record.Exception(() => CompactTestSupport.Decode(Schema, bytes[..random.Next(bytes.Length + 1)]));
            Assert.True(exception is null or CompactFormatException, exception?.ToString());
        }
    }

    [Fact]
    public void HugeDeclaredCount_IsRefusedBeforeAllocating()
    {
        // tags (key 1F) declares 1 byte of payload holding a count of 2^31.
        byte[] bytes = [1, 0, 1, 0x1F, 0x05, 0x80, 0x80, 0x80, 0x80, 0x08];
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, bytes));

        // The bytes that remain are checked before the limit (as for a string's length): 2^31 elements need more than 0 bytes.
        Assert.Equal(CompactErrorCodes.BadLength, error.Code);
        Assert.Contains("needs more bytes", error.Message, StringComparison.Ordinal);

        // A count the bytes could hold but the limit does not allow is the limit's.
        byte[] three = [1, 0, 1, 0x1F, 0x07, 0x03, 0x01, 0x61, 0x01, 0x62, 0x01, 0x63];
        var overLimit = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, three, new CompactLimits { MaxCollectionCount = 2 }));
        Assert.Equal((CompactErrorCodes.Limit, 2L), (overLimit.Code, overLimit.ByteOffset));
    }

    [Fact]
    public void Limits_AreEnforced()
    {
        var deep = "{\"id\":1}";
        for (var i = 0; i < 10; i++)
        {
            deep = "{\"owner\":" + deep + "}";
        }

        var bytes = CompactTestSupport.Encode(Schema, "User", deep);
        Assert.Contains("deeper", Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, bytes, new CompactLimits { MaxDepth = 5 })).Message, StringComparison.Ordinal);
        var longName = CompactTestSupport.Encode(Schema, "User", "{\"name\":\"" + new string('x', 100) + "\"}");
        Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, longName, new CompactLimits { MaxStringLength = 10 }));
    }

    [Theory]
    [InlineData(new byte[] { 2, 0, 1 }, "Unknown format version 2")]
    [InlineData(new byte[] { 1, 0x80, 1 }, "Unknown flags")]
    [InlineData(new byte[] { 1, 0, 9 }, "No type with id 9")]
    [InlineData(new byte[] { 1, 0, 1, 0x00 }, "Invalid field index 0")]
    [InlineData(new byte[] { 1, 0, 1, 0x14, 0x02 }, "2 is not a bool")]
    [InlineData(new byte[] { 1, 1, 1, 0x00, 0x01 }, "zlib data ends after 2 byte(s)")]
    [InlineData(new byte[] { 1, 0, 1, 0x0B, 0x02, 0xC3, 0x28 }, "Malformed UTF-8")]
    [InlineData(new byte[] { 1, 0, 1, 0x0B, 0x02, 0xC0, 0x80 }, "Malformed UTF-8")]
    [InlineData(new byte[] { 1, 0, 1, 0x0B, 0x03, 0xED, 0xA0, 0x80 }, "Malformed UTF-8")]
    public void MalformedFrames_SayWhy(byte[] bytes, string reason)
    {
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, bytes));
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void MalformedUtf8_NamesTheFieldAndTheStringsOffset()
    {
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, [1, 0, 1, 0x0B, 0x02, 0xC3, 0x28]));
        Assert.Equal("name", error.Path);
        Assert.Equal(2, error.ByteOffset); // in the body, as documented: after the key and the length byte
    }

    [Fact]
    public void JsonThatDoesNotFit_IsRejectedWithItsPath()
    {
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Encode(Schema, "User", """{"owner":{"tags":[1]}}"""));
        Assert.Equal("owner.tags[0]", error.Path);
        Assert.Throws<CompactFormatException>(() => CompactTestSupport.Encode(Schema, "User", """{"nope":1}"""));
    }

    // An escape the platform cannot unescape (half a surrogate pair), in a value, a record's member name, a nested
    // record's or a map's key: refused in the schema's words, with the path down to it, where it was said to be an
    // object of the wrong kind, or escaped the encoder as the platform's InvalidOperationException.
    [Theory]
    [InlineData("""{"name":"a\uD800"}""", "name", "The JSON value does not fit string: its text holds an unpaired surrogate")]
    [InlineData("""{"tags":["\uDC00"]}""", "tags[0]", "The JSON value does not fit string: its text holds an unpaired surrogate")]
    [InlineData("""{"\uD800":1}""", "", "A JSON member's name holds an unpaired surrogate")]
    [InlineData("""{"owner":{"\uD800x":1}}""", "owner", "A JSON member's name holds an unpaired surrogate")]
    [InlineData("""{"metadata":{"\uDFFF":"v"}}""", "metadata", "A JSON member's name holds an unpaired surrogate")]
    public void JsonWithAnUnpairedSurrogateEscape_IsRefusedWithItsPath(string json, string path, string message)
    {
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Encode(Schema, "User", json));
        Assert.Equal((CompactErrorCodes.Schema, path), (error.Error.Code, error.Path));
        Assert.StartsWith(message, error.Error.Message, StringComparison.Ordinal);
    }
}

using System.Text;
using System.Text.Json;
using Millrace.Json.Base64;

namespace Millrace.Json.Tests.Base64;

/// <summary>
/// Every base64 entry point (chars, bytes, a stream read in pieces of any size, the decoding stream with any buffer)
/// decodes the same text to the same bytes, or refuses it with the same error at the same offset: a reader may refuse
/// input, never return a different value.
/// </summary>
public class Base64ConsistencyTests
{
    private static readonly TestJsonContext Context = TestJsonContext.Default;

    [Theory]
    [InlineData("W3")]
    [InlineData("W3=")]
    [InlineData("MQ=")]
    [InlineData("MQ===")]
    [InlineData("MTIz=")]
    [InlineData("eyJJZCI6M")]
    [InlineData("eyJ-ZCI6+X0")]
    [InlineData("W3siaWQiOjE1fQ=")]
    public async Task Deserialize_MalformedText_SameErrorFromEveryEntryPoint(string base64)
    {
        var bytes = Encoding.ASCII.GetBytes(base64);
        var fromChars = Base64Json.Deserialize(base64, Context.JsonElement);
        Assert.Equal(JsonErrorCodes.Base64, fromChars.Error.Code);
        AssertSameError(fromChars.Error, Base64Json.Deserialize(bytes.AsSpan(), Context.JsonElement).Error);
        for (var chunk = 1; chunk <= bytes.Length; chunk++)
        {
            AssertSameError(fromChars.Error, (await Base64Json.DeserializeAsync(new ChunkedStream(bytes, chunk), Context.JsonElement)).Error);
            var stream = new Base64DecodingStream(new ChunkedStream(bytes, chunk), bufferSize: 16);
            AssertSameError(fromChars.Error, Assert.Throws<MillraceException>(() => stream.CopyTo(Stream.Null)).Error);
        }
    }

    [Fact]
    public async Task DeserializeAsync_WhitespaceInsideGroupsAcrossOneByteReads_DecodesTheSameValue()
    {
        const string text = "Wzg2NywyNTk0LDQwNTcsMj k\t1 MThd";
        Assert.Equal([867, 2594, 4057, 29518], Base64Json.Deserialize(text, Context.ListInt32).Value);
        var streamed = await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(text), 1), Context.ListInt32);
        Assert.Equal([867, 2594, 4057, 29518], streamed.Value);
    }

    [Fact]
    public async Task DeserializeAsync_LongWhitespaceRunInsideValidBase64_Succeeds()
    {
        var encoded = Convert.ToBase64String("[1,2,3]"u8);
        var text = encoded[..5] + new string(' ', 20_000) + encoded[5..];
        Assert.Equal([1, 2, 3], Base64Json.Deserialize(text, Context.ListInt32).Value);
        foreach (var chunk in new[] { 1, 7, 4096, 1 << 20 })
        {
            Assert.Equal([1, 2, 3], (await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(text), chunk), Context.ListInt32)).Value);
        }
    }

    [Fact]
    public void DecodingStream_SmallBufferWithNewlineInsideAGroup_DecodesTheRightBytes()
    {
        var expected = Convert.FromBase64String("W3siaWQiOjE1ImUQ");
        using var stream = new Base64DecodingStream(new MemoryStream("W3siaWQiOjE1Im\nUQ"u8.ToArray()), bufferSize: 16);
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        Assert.Equal(expected, copy.ToArray());
    }

    [Theory]
    [InlineData("MQ")]
    [InlineData("MQ==")]
    [InlineData("MQ= =")]
    [InlineData(" M Q = = \n")]
    public async Task Deserialize_CompleteOrUnpaddedLastGroup_AcceptedEverywhere(string base64)
    {
        Assert.Equal(1, Base64Json.Deserialize(base64, Context.Int32).Value);
        Assert.Equal(1, Base64Json.Deserialize(Encoding.ASCII.GetBytes(base64).AsSpan(), Context.Int32).Value);
        Assert.Equal(1, (await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(base64), 1), Context.Int32)).Value);
    }

    [Theory]
    [InlineData("MQ=")]
    [InlineData("WzEsMl0")]
    public async Task DeserializeAsync_TruncatedText_IsRefused(string truncatedOf)
    {
        // "MQ=" is "MQ==" cut short; "WzEsMl0" cut after its 6th character is "WzEsMl", which decodes to "[1,2".
        var cut = truncatedOf == "MQ=" ? truncatedOf : truncatedOf[..6];
        var result = await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(cut), 2), Context.ListInt32);
        Assert.True(result.IsFailure);
        Assert.Equal(Base64Json.Deserialize(cut, Context.ListInt32).Error.Code, result.Error.Code);
    }

    [Fact]
    public void DecodingStream_LoneCharacterAtTheEnd_Throws()
    {
        using var stream = new Base64DecodingStream(new MemoryStream("TWFuTQ==TWFuT"u8.ToArray()[8..]));
        var error = Assert.Throws<MillraceException>(() => stream.CopyTo(Stream.Null)).Error;
        Assert.Equal(JsonErrorCodes.Base64, error.Code);
        Assert.Equal(5, error.ByteOffset);
    }

    [Fact]
    public void Deserialize_UndefinedAlphabet_IsAnArgumentError() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => Base64Json.Deserialize("MQ==", Context.Int32, (Base64Alphabet)7));

    /// <summary>
    /// Random payloads (as the JSON string of their bytes), encoded in every alphabet, padded or not, with whitespace
    /// anywhere, then sometimes damaged: chars, bytes, random read sizes and random decoding-stream buffers all give
    /// the original value or all refuse the text with the same error.
    /// </summary>
    [Fact]
    public void Decode_RandomTextAnyChunking_SameValueOrSameError() => PropertyCheck.Run(
        Prop.ForAll(Gen.ListOf(Gen.Choose(0, 255).Select(b => (byte)b)).Select(b => b.ToArray()).ToArbitrary(), Gen.Choose(0, int.MaxValue).ToArbitrary(), (payload, seed) =>
        {
            var random = new Random(seed);
            var json = JsonSerializer.SerializeToUtf8Bytes(payload, Context.ByteArray);
            var text = Encode(random, json);
            var damaged = random.Next(3) == 0;
            text = damaged ? Damage(random, text) : text;
            var alphabet = damaged ? (Base64Alphabet)random.Next(3) : Base64Alphabet.Auto;
            var bytes = Encoding.Latin1.GetBytes(text);

            var fromChars = Base64Json.Deserialize(text, Context.ByteArray, alphabet);
            Assert.True(damaged || fromChars.IsSuccess, $"'{text}' did not decode: {fromChars}");
            Assert.True(damaged || fromChars.Value.AsSpan().SequenceEqual(payload));

            var fromBytes = Base64Json.Deserialize(bytes.AsSpan(), Context.ByteArray, alphabet);
            var fromStream = Base64Json.DeserializeAsync(new ChunkedStream(bytes, random.Next(1, 40)), Context.ByteArray, alphabet).AsTask().GetAwaiter().GetResult();
            AssertSameOutcome(fromChars, fromBytes, text, exactJsonErrors: true);
            AssertSameOutcome(fromChars, fromStream, text, exactJsonErrors: false);

            var raw = DecodeStream(bytes, alphabet, random.Next(1, 40), random.Next(16, 80));
            if (fromChars.IsFailure && fromChars.Error.Code == JsonErrorCodes.Base64)
            {
                AssertSameError(fromChars.Error, raw.Error);
            }
            else if (fromChars.IsSuccess)
            {
                Assert.Equal(fromChars.Value, JsonSerializer.Deserialize(raw.Value, Context.ByteArray));
            }

            return true;
        }),
        maxTest: 400);

    [Fact]
    public async Task DeserializeAsync_RandomJsonAnyChunking_SameValueAsDeserialize()
    {
        var random = new Random(2026);
        for (var run = 0; run < 200; run++)
        {
            var numbers = Enumerable.Range(0, random.Next(0, 30)).Select(_ => random.Next()).ToList();
            var text = Encode(random, JsonSerializer.SerializeToUtf8Bytes(numbers, Context.ListInt32));
            var sync = Base64Json.Deserialize(text, Context.ListInt32);
            Assert.Equal(numbers, sync.Value);
            var streamed = await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(text), random.Next(1, 20)), Context.ListInt32);
            Assert.Equal(numbers, streamed.Value);
        }
    }

    [Fact]
    public async Task DeserializeAsync_TypeTheSerializerCannotCreate_IsAFailureLikeDeserialize()
    {
        var text = Convert.ToBase64String("""{"Id":1}"""u8);
        var sync = Base64Json.Deserialize(text, Context.Unconstructible);
        Assert.Equal(JsonErrorCodes.Bind, sync.Error.Code);
        var streamed = await Base64Json.DeserializeAsync(new MemoryStream(Encoding.ASCII.GetBytes(text)), Context.Unconstructible);
        Assert.Equal(JsonErrorCodes.Bind, streamed.Error.Code);
    }

    [Theory]
    [InlineData("")]
    [InlineData("e30=")]
    [InlineData("eyJJZCI6IngifQ==")]
    [InlineData("eyJJZCI6OTk5OTk5OTk5OTk5fQ==")]
    [InlineData("WzEsMl0=")]
    [InlineData("eyJJZCI6")]
    public async Task Deserialize_Errors_SayItInTheCallersTerms(string base64)
    {
        var sync = Base64Json.Deserialize(base64, Context.StrictPerson);
        var streamed = await Base64Json.DeserializeAsync(new MemoryStream(Encoding.ASCII.GetBytes(base64)), Context.StrictPerson);
        foreach (var error in new[] { sync.Error, streamed.Error })
        {
            Assert.NotNull(error.ByteOffset);
            foreach (var internals in new[] { "isFinalBlock", "System.", "Millrace.", "LineNumber", "BytePositionInLine", "Path:" })
            {
                Assert.DoesNotContain(internals, error.Message, StringComparison.Ordinal);
            }
        }
    }

    [Fact]
    public async Task DeserializeAsync_ErrorOnALaterLine_CarriesTheAbsoluteOffset()
    {
        var malformed = Convert.ToBase64String("[1,\r\n2,\n\n  @]"u8);
        var sync = Base64Json.Deserialize(malformed, Context.ListInt32).Error;
        var streamed = (await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(malformed), 3), Context.ListInt32)).Error;
        Assert.Equal(JsonErrorCodes.Syntax, streamed.Code);
        Assert.Equal(11, sync.ByteOffset);
        Assert.Equal(sync.ByteOffset, streamed.ByteOffset);

        var wrongType = Convert.ToBase64String("{\n  \"Id\":\n  \"x\"\n}"u8);
        var bind = (await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(wrongType), 5), Context.StrictPerson)).Error;
        Assert.Equal(JsonErrorCodes.Bind, bind.Code);
        Assert.InRange(bind.ByteOffset!.Value, 15, 18);
    }

    private static void AssertSameError(Error expected, Error actual)
    {
        Assert.Equal(expected.Code, actual.Code);
        Assert.Equal(expected.ByteOffset, actual.ByteOffset);
        Assert.Equal(expected.Message, actual.Message);
    }

    private static void AssertSameOutcome(Result<byte[]> expected, Result<byte[]> actual, string text, bool exactJsonErrors)
    {
        Assert.True(expected.IsSuccess == actual.IsSuccess, $"'{text}': {expected} vs {actual}");
        if (expected.IsSuccess)
        {
            Assert.Equal(expected.Value, actual.Value);
            return;
        }

        Assert.True(expected.Error.Code == actual.Error.Code, $"'{text}': {expected.Error} vs {actual.Error}");
        if (exactJsonErrors || expected.Error.Code == JsonErrorCodes.Base64)
        {
            AssertSameError(expected.Error, actual.Error);
        }
    }

    private static Result<byte[]> DecodeStream(byte[] text, Base64Alphabet alphabet, int chunk, int bufferSize)
    {
        using var stream = new Base64DecodingStream(new ChunkedStream(text, chunk), alphabet, bufferSize: bufferSize);
        using var copy = new MemoryStream();
        try
        {
            stream.CopyTo(copy);
        }
        catch (MillraceException exception)
        {
            return exception.Error;
        }

        return copy.ToArray();
    }

    private static string Encode(Random random, byte[] payload)
    {
        var text = random.Next(3) switch
        {
            0 => Convert.ToBase64String(payload),
            1 => Convert.ToBase64String(payload).TrimEnd('='),
            _ => System.Buffers.Text.Base64Url.EncodeToString(payload),
        };
        var spaced = new StringBuilder();
        foreach (var c in text)
        {
            if (random.Next(6) == 0)
            {
                spaced.Append(" \t\r\n"[random.Next(4)], random.Next(1, random.Next(10) == 0 ? 40 : 3));
            }

            spaced.Append(c);
        }

        return spaced.ToString();
    }

    private static string Damage(Random random, string text)
    {
        var chars = text.ToList();
        for (var edits = random.Next(1, 3); edits > 0; edits--)
        {
            var at = random.Next(chars.Count + 1);
            switch (random.Next(3))
            {
                case 0 when at < chars.Count:
                    chars.RemoveAt(at);
                    break;
                case 1:
                    chars.Insert(at, "=-_+/*A \u00e9"[random.Next(9)]);
                    break;
                default:
                    chars.RemoveRange(at, chars.Count - at);
                    break;
            }
        }

        return new string([.. chars]);
    }
}

using System.Text;
using System.Text.Json;
using Millrace.Json.Base64;

namespace Millrace.Json.Tests.Base64;

public class Base64JsonTests
{
    private static readonly TestJsonContext Context = TestJsonContext.Default;

    // Chosen so that its base64 has both '+' and '/' (so base64url differs) and needs padding.
    private static readonly Person Sample = new(1, "~~~>>>???", 0.5, true, ["~~~"]);

    private static readonly byte[] SampleJson = """{"Id":1,"Name":"~~~>>>???","Score":0.5,"Active":true,"Tags":["~~~"]}"""u8.ToArray();

    public static TheoryData<string> ValidEncodings()
    {
        var padded = Convert.ToBase64String(SampleJson);
        var url = System.Buffers.Text.Base64Url.EncodeToString(SampleJson);
        return new TheoryData<string>
        {
            padded,
            padded.TrimEnd('='),
            url,
            url + new string('=', (4 - (url.Length % 4)) % 4),
            string.Join("\r\n", padded.Chunk(16).Select(c => new string(c))),
        };
    }

    [Fact]
    public void Sample_HasCharactersThatDifferBetweenAlphabets()
    {
        var padded = Convert.ToBase64String(SampleJson);
        Assert.True(padded.Contains('+', StringComparison.Ordinal) && padded.Contains('/', StringComparison.Ordinal));
        Assert.True(padded.Length % 4 == 0 && padded.EndsWith('='));
    }

    [Theory]
    [MemberData(nameof(ValidEncodings))]
    public async Task Deserialize_EveryEntryPointDecodesEveryValidEncoding(string base64)
    {
        Assert.Equal(Sample, Base64Json.Deserialize(base64, Context.Person).Value);
        Assert.Equal(Sample, Base64Json.Deserialize(Encoding.UTF8.GetBytes(base64), Context.Person).Value);
        foreach (var chunk in new[] { 1, 3, 7, 1024 })
        {
            var streamed = await Base64Json.DeserializeAsync(new ChunkedStream(Encoding.UTF8.GetBytes(base64), chunk), Context.Person);
            Assert.Equal(Sample, streamed.Value);
        }
    }

    [Fact]
    public void Deserialize_ExplicitAlphabetRejectsTheOther()
    {
        var standard = Convert.ToBase64String(SampleJson);
        var url = System.Buffers.Text.Base64Url.EncodeToString(SampleJson);
        Assert.Equal(JsonErrorCodes.Base64, Base64Json.Deserialize(url, Context.Person, Base64Alphabet.Standard).Error.Code);
        Assert.Equal(JsonErrorCodes.Base64, Base64Json.Deserialize(standard, Context.Person, Base64Alphabet.Url).Error.Code);
        Assert.Equal(Sample, Base64Json.Deserialize(url, Context.Person, Base64Alphabet.Url).Value);
        Assert.Equal(Sample, Base64Json.Deserialize(standard, Context.Person, Base64Alphabet.Standard).Value);
    }

    public static TheoryData<string, long, string> Malformed() => new()
    {
        { "eyJJZCI6*MX0=", 8, "'*'" },
        { "eyJJZCI6MX0=eyJ9", 11, "Padding" },
        { "eyJJZCI6MX0=A", 11, "Padding" },
        { "eyJJZCI6M", 9, "lone character" },
        { "eyJJZCI6MX0\u00e9", 11, "0xE9" },
    };

    [Theory]
    [MemberData(nameof(Malformed))]
    public async Task Deserialize_MalformedBase64_ReportsOffsetAndReason(string base64, long offset, string reason)
    {
        var fromChars = Base64Json.Deserialize(base64, Context.StrictPerson);
        Assert.Equal(JsonErrorCodes.Base64, fromChars.Error.Code);
        Assert.Equal(offset, fromChars.Error.ByteOffset);
        Assert.Contains(reason, fromChars.Error.Message, StringComparison.Ordinal);

        var latin1 = Encoding.Latin1.GetBytes(base64);
        var fromBytes = Base64Json.Deserialize(latin1, Context.StrictPerson);
        Assert.Equal(JsonErrorCodes.Base64, fromBytes.Error.Code);
        Assert.Equal(offset, fromBytes.Error.ByteOffset);

        var fromStream = await Base64Json.DeserializeAsync(new ChunkedStream(latin1, 3), Context.StrictPerson);
        Assert.Equal(JsonErrorCodes.Base64, fromStream.Error.Code);
        Assert.Equal(offset, fromStream.Error.ByteOffset);
    }

    [Fact]
    public async Task Deserialize_ValidBase64OfBadJson_ReportsSyntaxOrBindWithDecodedOffset()
    {
        var syntax = Convert.ToBase64String("""{"Id":tru}"""u8);
        var syntaxError = Base64Json.Deserialize(syntax, Context.StrictPerson).Error;
        Assert.Equal(JsonErrorCodes.Syntax, syntaxError.Code);

        var bind = Convert.ToBase64String("""{"Id":"x"}"""u8);
        var bindError = Base64Json.Deserialize(bind, Context.StrictPerson).Error;
        Assert.Equal(JsonErrorCodes.Bind, bindError.Code);
        Assert.Equal(6, bindError.ByteOffset);
        Assert.Equal("$.Id", bindError.Path);

        var streamed = await Base64Json.DeserializeAsync(new MemoryStream(Encoding.ASCII.GetBytes(bind)), Context.StrictPerson);
        Assert.Equal(JsonErrorCodes.Bind, streamed.Error.Code);
        Assert.Equal("$.Id", streamed.Error.Path);

        var nothing = Base64Json.Deserialize(Convert.ToBase64String("null"u8), Context.StrictPerson);
        Assert.Equal(JsonErrorCodes.NullItem, nothing.Error.Code);
    }

    [Fact]
    public void Deserialize_Empty_IsAJsonError() =>
        Assert.Equal(JsonErrorCodes.Syntax, Base64Json.Deserialize("", Context.StrictPerson).Error.Code);

    [Fact]
    public void Deserialize_ReflectionOverload_Binds()
    {
        var options = new JsonSerializerOptions { TypeInfoResolver = TestJsonContext.Default };
        Assert.Equal(Sample, Base64Json.Deserialize<Person>(Convert.ToBase64String(SampleJson), options).Value);
    }

    [Fact]
    public async Task DeserializeAsync_LargePayload_StreamsThroughSmallBuffers()
    {
        var people = Enumerable.Range(0, 5000).Select(i => new Person(i, $"name {i}", i / 4.0, i % 2 == 0, ["a", "b"])).ToList();
        var base64 = Encoding.ASCII.GetBytes(Convert.ToBase64String(JsonSerializer.SerializeToUtf8Bytes(people, Context.ListPerson)));
        var result = await Base64Json.DeserializeAsync(new ChunkedStream(base64, 4093), Context.ListPerson);
        Assert.Equal(people, result.Value);
    }

    [Fact]
    public void DecodingStream_SyncReadMatchesConvert()
    {
        var payload = new byte[10_000];
        new Random(3).NextBytes(payload);
        using var stream = new Base64DecodingStream(new ChunkedStream(Encoding.ASCII.GetBytes(Convert.ToBase64String(payload)), 555), bufferSize: 64);
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        Assert.Equal(payload, copy.ToArray());
        Assert.False(stream.CanSeek);
        Assert.Throws<NotSupportedException>(() => stream.Length);
    }

    [Fact]
    public void RoundTrip_RandomPayloadsInEveryAlphabetAndPadding() => PropertyCheck.Run(
        Prop.ForAll(JsonItemsTestsPeople(), Gen.Choose(0, 3).ToArbitrary(), (people, form) =>
        {
            var json = JsonSerializer.SerializeToUtf8Bytes(people, Context.ListPerson);
            var text = form switch
            {
                0 => Convert.ToBase64String(json),
                1 => Convert.ToBase64String(json).TrimEnd('='),
                2 => System.Buffers.Text.Base64Url.EncodeToString(json),
                _ => Convert.ToBase64String(json, Base64FormattingOptions.InsertLineBreaks),
            };
            var fromChars = Base64Json.Deserialize(text, Context.ListPerson);
            var fromStream = Base64Json.DeserializeAsync(new ChunkedStream(Encoding.ASCII.GetBytes(text), 13), Context.ListPerson).AsTask().GetAwaiter().GetResult();
            return fromChars.Value.SequenceEqual(people) && fromStream.Value.SequenceEqual(people);
        }),
        maxTest: 100);

    private static Arbitrary<List<Person>> JsonItemsTestsPeople() => Streaming.JsonItemsTests.PeopleArbitrary();
}

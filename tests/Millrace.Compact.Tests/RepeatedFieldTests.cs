using System.Text.Json;
using Millrace.Compact.Schema;
using Millrace.Compact.Serialization;

namespace Millrace.Compact.Tests;

/// <summary>
/// A writer writes each field of a record, and each key of a map, once: a second copy (a hand-made or corrupt frame, or
/// JSON that names a member twice) has two values and room for one, so every reader and the encoder refuse it, located,
/// rather than keep one silently.
/// </summary>
public class RepeatedFieldTests
{
    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse(CompactTestSupport.UserSchema);

    [Fact]
    public void AFieldTwice_IsRefused_ByTheTypedAndTheJsonDecoder_AtItsSecondKey()
    {
        var once = CompactTestSupport.Encode(Schema, "User", """{"id":1}""");
        var body = once[3..];
        byte[] twice = [.. once, .. body];

        var typed = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<TypedUser>(twice));
        var json = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, twice));

        // Offsets count from the body's start, after the 3-byte frame header; paths name the member, in C# or in the schema.
        foreach (var (error, path) in new[] { (typed, "Id"), (json, "id") })
        {
            Assert.Equal((CompactErrorCodes.Repeated, body.Length, path), (error.Error.Code, (int)error.Error.ByteOffset!.Value, error.Path));
            Assert.StartsWith("Field 1 appears twice in the record; a record holds each field once.", error.Error.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void AMapKeyTwice_IsRefused_ByTheTypedAndTheJsonDecoder_AtTheSecondKey()
    {
        // Written with two keys of one length, then the second made the same as the first.
        var frame = CompactTestSupport.Encode(Schema, "User", """{"metadata":{"k":"v","j":"w"}}""");
        var second = Array.IndexOf(frame, (byte)'j');
        frame[second] = (byte)'k';

        var typed = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<TypedUser>(frame));
        var json = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, frame));

        foreach (var (error, path) in new[] { (typed, "Metadata.k"), (json, "metadata.k") })
        {
            Assert.Equal((CompactErrorCodes.Repeated, second - 1 - 3, path), (error.Error.Code, (int)error.Error.ByteOffset!.Value, error.Path));
            Assert.StartsWith("The key 'k' appears twice in the map.", error.Error.Message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("""{"id":1,"name":"A","id":2}""", "id", "The member 'id' appears twice in the object.")]
    [InlineData("""{"id":1,"id":null}""", "id", "The member 'id' appears twice in the object.")]
    [InlineData("""{"owner":{"name":"B","name":"C"}}""", "owner.name", "The member 'name' appears twice in the object.")]
    [InlineData("""{"metadata":{"k":"a","k":"b"}}""", "metadata.k", "The key 'k' appears twice in the map.")]
    public void JsonNamingAMemberTwice_IsRefusedWhenEncoding(string json, string path, string message)
    {
        using var document = JsonDocument.Parse(json);

        var error = Assert.Throws<CompactFormatException>(() => CompactJson.Encode(Schema, "User", document.RootElement));

        Assert.Equal((CompactErrorCodes.Repeated, path, message), (error.Error.Code, error.Path, error.Error.Message));
    }

    [Fact]
    public void NestedRecords_EachStartTheirOwnCount()
    {
        // The same field in two records is no repeat: each nested record has its own.
        var frame = CompactTestSupport.Encode(Schema, "User", """{"id":1,"owner":{"id":2,"owner":{"id":3}}}""");

        Assert.Equal(3, CompactSerializer.Deserialize<TypedUser>(frame).Owner!.Owner!.Id);
        Assert.Equal(CompactTestSupport.Normalize("""{"id":1,"owner":{"id":2,"owner":{"id":3}}}"""), CompactTestSupport.Normalize(CompactTestSupport.Decode(Schema, frame)));
    }
}

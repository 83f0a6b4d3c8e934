using System.Text.Json;
using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

/// <summary>A JSON value whose strings are not UTF-8 is refused by CompactJson in its own error, never the platform's exception.</summary>
public class JsonEncodingTests
{
    public static TheoryData<string> Places => ["name", "tag", "metadata key", "metadata value", "member name"];

    [Theory]
    [MemberData(nameof(Places))]
    public void Encode_StringsThatAreNotUtf8_AreACompactFormatException(string place)
    {
        var json = place switch
        {
            "name" => """{"id":1,"name":"ab?cd"}""",
            "tag" => """{"id":1,"tags":["ok","a?"]}""",
            "metadata key" => """{"id":1,"metadata":{"k?":"v"}}""",
            "metadata value" => """{"id":1,"metadata":{"k":"v?"}}""",
            _ => """{"id":1,"na?me":"x"}""",
        };
        var bytes = System.Text.Encoding.ASCII.GetBytes(json);
        bytes[Array.IndexOf(bytes, (byte)'?')] = 0xFF;
        using var document = JsonDocument.Parse(bytes);
        var schema = CompactSchemaSet.Parse(CompactTestSupport.UserSchema);

        var error = Assert.Throws<CompactFormatException>(() => CompactJson.Encode(schema, "User", document.RootElement));
        Assert.Contains("UTF-8", error.Message, StringComparison.Ordinal);
    }
}

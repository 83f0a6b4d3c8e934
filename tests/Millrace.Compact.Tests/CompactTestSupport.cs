using System.Text;
using System.Text.Json;
using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

internal static class CompactTestSupport
{
    public const string UserSchema = """
        {"types":[{"name":"User","id":1,"fields":[
          {"name":"id","index":1,"type":"int64"},
          {"name":"name","index":2,"type":"string"},
          {"name":"active","index":5,"type":"bool"},
          {"name":"tags","index":7,"type":"list<string>"},
          {"name":"owner","index":8,"type":"User"},
          {"name":"metadata","index":9,"type":"map<string,string>"}]}]}
        """;

    public static byte[] Encode(CompactSchemaSet schema, string type, string json, CompactCompression compression = CompactCompression.None)
    {
        using var document = JsonDocument.Parse(json);
        return CompactJson.Encode(schema, type, document.RootElement, compression);
    }

    public static string Decode(CompactSchemaSet schema, byte[] frame, CompactLimits? limits = null)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            CompactJson.Decode(schema, frame, writer, limits);
        }

        return Encoding.UTF8.GetString(buffer.ToArray());
    }

    public static string Normalize(string json) => JsonSerializer.Serialize(JsonDocument.Parse(json).RootElement);
}

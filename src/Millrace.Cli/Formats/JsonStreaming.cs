using System.Text.Json;

namespace Millrace.Cli.Formats;

/// <summary>
/// Keeps a <see cref="Utf8JsonWriter"/> over a stream from holding a whole document: it buffers what it writes until
/// flushed, so the tool's JSON writers flush it after each value once a chunk has gathered.
/// </summary>
internal static class JsonStreaming
{
    /// <summary>How much a writer gathers before it is flushed to its stream.</summary>
    public const int ChunkSize = 16 * 1024;

    /// <summary>Flushes <paramref name="writer"/> when a chunk has gathered.</summary>
    public static void FlushIfFull(Utf8JsonWriter writer)
    {
        if (writer.BytesPending >= ChunkSize)
        {
            writer.Flush();
        }
    }

    /// <summary>Writes <paramref name="element"/> as <see cref="JsonElement.WriteTo"/> does, flushing between values.</summary>
    public static void WriteTo(JsonElement element, Utf8JsonWriter writer)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Object:
                writer.WriteStartObject();
                foreach (var property in element.EnumerateObject())
                {
                    writer.WritePropertyName(property.Name);
                    WriteTo(property.Value, writer);
                }

                writer.WriteEndObject();
                break;
            case JsonValueKind.Array:
                writer.WriteStartArray();
                foreach (var item in element.EnumerateArray())
                {
                    WriteTo(item, writer);
                }

                writer.WriteEndArray();
                break;
            default:
                element.WriteTo(writer);
                break;
        }

        FlushIfFull(writer);
    }
}

using System.Text.Json;

namespace Millrace.Cli.Formats;

/// <summary>
/// Finds where, in JSON text, the value an error's path names starts. Compact encoding reads a parsed document, whose
/// values carry no positions, so its errors give the path (<c>owner.tags[2]</c>) and the tool looks the offset up here.
/// </summary>
internal static class JsonValueOffsets
{
    /// <summary>Finds the value at <paramref name="path"/>: names joined by dots, indices in brackets, other names in brackets and quotes, as <see cref="ErrorPath"/> writes them.</summary>
    /// <param name="json">The JSON text, which parsed.</param>
    /// <param name="path">The path; empty for the root.</param>
    /// <param name="repeated">Whether the path's last name is one its object holds twice: then the second is found, the one an error about the repeat means.</param>
    /// <returns>The value's first byte, or <see langword="null"/> when the path does not lead to one.</returns>
    public static long? Find(ReadOnlySpan<byte> json, string path, bool repeated = false)
    {
        var reader = new Utf8JsonReader(json);
        try
        {
            if (!reader.Read())
            {
                return null;
            }

            var segments = PathSegments.Parse(path);
            if (segments is null)
            {
                return null;
            }

            for (var i = 0; i < segments.Count; i++)
            {
                var (name, index) = segments[i];
                var skip = repeated && i == segments.Count - 1 ? 1 : 0;
                if (!(index is { } element ? EnterElement(ref reader, element) : EnterProperty(ref reader, name!, skip)))
                {
                    return null;
                }
            }

            return reader.TokenStartIndex;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    // Enters the value of the name, after passing over `skip` earlier members of that name.
    private static bool EnterProperty(ref Utf8JsonReader reader, string name, int skip)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            return false;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var match = reader.ValueTextEquals(name);
            reader.Read();
            if (match && skip-- == 0)
            {
                return true;
            }

            reader.Skip();
        }

        return false;
    }

    private static bool EnterElement(ref Utf8JsonReader reader, int index)
    {
        if (reader.TokenType != JsonTokenType.StartArray || index < 0)
        {
            return false;
        }

        for (var i = 0; reader.Read() && reader.TokenType != JsonTokenType.EndArray; i++)
        {
            if (i == index)
            {
                return true;
            }

            reader.Skip();
        }

        return false;
    }
}

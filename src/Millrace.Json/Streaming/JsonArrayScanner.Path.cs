using System.Text.Json;

namespace Millrace.Json.Streaming;

/// <summary>Navigating <see cref="JsonStreamOptions.Path"/> (<c>$.a.b</c>) to the selected array, and naming where it went wrong.</summary>
internal sealed partial class JsonArrayScanner
{
    /// <summary>
    /// Takes one step inside an object on the path: the property that continues the path, or a property skipped
    /// unbound. The reader stands on a property name or the object's end.
    /// </summary>
    /// <param name="reader">The reader, on the property name (or end of object).</param>
    /// <param name="spanBase">Where in the buffer the reader started.</param>
    /// <param name="stop">What to return, when the step cannot be completed here.</param>
    /// <returns><see langword="true"/> when the step is complete and may be committed.</returns>
    private bool TryNavigate(ref Utf8JsonReader reader, int spanBase, out ScanStep stop)
    {
        if (reader.TokenType == JsonTokenType.EndObject)
        {
            stop = Fail(JsonErrorCodes.PathNotFound, $"The document has no property '{PathUpTo(_pathLevel + 1)}'.", spanBase + reader.TokenStartIndex, fatal: true, path: PathUpTo(_pathLevel));
            return false;
        }

        var nameStart = (int)reader.TokenStartIndex;
        var matches = NameEquals(ref reader, _path[_pathLevel]);
        if (!reader.Read())
        {
            stop = NeedMoreData();
            return false;
        }

        if (matches)
        {
            var isLast = _pathLevel == _path.Length - 1;
            var wanted = isLast ? JsonTokenType.StartArray : JsonTokenType.StartObject;
            if (reader.TokenType != wanted)
            {
                stop = Fail(JsonErrorCodes.NotAnArray, $"'{PathUpTo(_pathLevel + 1)}' is {Describe(reader.TokenType)}; expected {Describe(wanted)}.", spanBase + reader.TokenStartIndex, fatal: true, path: PathUpTo(_pathLevel + 1));
                return false;
            }

            _pathLevel++;
            _phase = isLast ? Phase.Items : Phase.Navigate;
        }
        else if (IsContainerStart(reader.TokenType) && !reader.TrySkip())
        {
            stop = NeedMoreData();
            return false;
        }
        else if (IsOverSizeLimit(spanBase + (int)reader.BytesConsumed))
        {
            // Any skipped property counts, a long string as much as a large object: read in small pieces, it would
            // have been refused before it was complete.
            stop = TooLarge();
            return false;
        }

        // A property on the way is text as much as an item is: its name, and its value when skipped, must be UTF-8.
        var end = matches ? (int)reader.TokenStartIndex : (int)reader.BytesConsumed;
        if (JsonText.IndexOfInvalidUtf8(Buffer.AsSpan(spanBase + nameStart, end - nameStart)) is >= 0 and var invalid)
        {
            stop = FailEncoding(spanBase + nameStart + invalid, index: null, path: PathUpTo(_pathLevel - (matches ? 1 : 0)));
            return false;
        }

        stop = default;
        return true;
    }

    /// <summary>
    /// Compares a property name with a path step. An escaped name is unescaped here rather than by the reader, which
    /// throws on an escaped lone surrogate: such a name simply is not the step (a path is a valid string).
    /// </summary>
    private static bool NameEquals(ref Utf8JsonReader reader, ReadOnlySpan<byte> step)
    {
        var raw = reader.ValueSpan;
        if (!reader.ValueIsEscaped)
        {
            return raw.SequenceEqual(step);
        }

        // Unescaped, a name is never longer than escaped.
        Span<byte> name = raw.Length <= 256 ? stackalloc byte[256] : new byte[raw.Length];
        var length = 0;
        for (var i = 0; i < raw.Length;)
        {
            if (raw[i] != (byte)'\\')
            {
                name[length++] = raw[i++];
                continue;
            }

            // The reader has checked every escape's form; only what \u escapes stand for is left to check.
            var escaped = raw[i + 1];
            if (escaped != (byte)'u')
            {
                name[length++] = escaped switch
                {
                    (byte)'b' => (byte)'\b',
                    (byte)'f' => (byte)'\f',
                    (byte)'n' => (byte)'\n',
                    (byte)'r' => (byte)'\r',
                    (byte)'t' => (byte)'\t',
                    _ => escaped,
                };
                i += 2;
                continue;
            }

            var code = HexValue(raw.Slice(i + 2, 4));
            i += 6;
            if (char.IsLowSurrogate((char)code))
            {
                return false;
            }

            if (char.IsHighSurrogate((char)code))
            {
                if (i + 6 > raw.Length || raw[i] != (byte)'\\' || raw[i + 1] != (byte)'u' || !char.IsLowSurrogate((char)HexValue(raw.Slice(i + 2, 4))))
                {
                    return false;
                }

                code = char.ConvertToUtf32((char)code, (char)HexValue(raw.Slice(i + 2, 4)));
                i += 6;
            }

            length += new System.Text.Rune(code).EncodeToUtf8(name[length..]);
        }

        return name[..length].SequenceEqual(step);
    }

    private static int HexValue(ReadOnlySpan<byte> hex) =>
        int.Parse(hex, System.Globalization.NumberStyles.AllowHexSpecifier, System.Globalization.CultureInfo.InvariantCulture);

    private static string Describe(JsonTokenType token) => token switch
    {
        JsonTokenType.StartArray => "an array",
        JsonTokenType.StartObject => "an object",
        JsonTokenType.String => "a string",
        JsonTokenType.Number => "a number",
        JsonTokenType.True or JsonTokenType.False => "a boolean",
        JsonTokenType.Null => "null",
        _ => token.ToString(),
    };

    private string PathUpTo(int steps)
    {
        var path = "$";
        for (var i = 0; i < steps; i++)
        {
            path = ErrorPath.Member(path, System.Text.Encoding.UTF8.GetString(_path[i]));
        }

        return path;
    }
}

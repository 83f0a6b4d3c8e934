namespace Millrace.Cli.Formats;

/// <summary>
/// Reads paths as <see cref="ErrorPath"/> writes them (names joined by dots, indices in brackets, other names in brackets
/// and quotes with <c>\'</c>, <c>\\</c> and <c>\uXXXX</c> escapes), so a path an error printed can be given back to the
/// tool: to find a JSON value's offset, or a tag to show.
/// </summary>
internal static class PathSegments
{
    /// <summary>Splits a path: <c>owner.tags[2]['a.b']</c> is the name owner, the name tags, the index 2, then the name a.b.</summary>
    /// <param name="path">The path.</param>
    /// <returns>Its segments, or <see langword="null"/> when it is malformed.</returns>
    public static List<(string? Name, int? Index)>? Parse(string path)
    {
        var segments = new List<(string? Name, int? Index)>();
        for (var i = 0; i < path.Length;)
        {
            if (path[i] == '.')
            {
                i++;
            }
            else if (path.AsSpan(i).StartsWith("['"))
            {
                var name = new System.Text.StringBuilder();
                for (i += 2; i < path.Length && path[i] != '\''; i++)
                {
                    // \' and \\ stand for themselves; \uXXXX for a control or line-separating character.
                    if (path[i] == '\\')
                    {
                        if (++i == path.Length)
                        {
                            return null;
                        }

                        if (path[i] == 'u' && i + 4 < path.Length
                            && int.TryParse(path.AsSpan(i + 1, 4), System.Globalization.NumberStyles.AllowHexSpecifier, System.Globalization.CultureInfo.InvariantCulture, out var code))
                        {
                            name.Append((char)code);
                            i += 4;
                            continue;
                        }
                    }

                    name.Append(path[i]);
                }

                if (!path.AsSpan(i).StartsWith("']"))
                {
                    return null;
                }

                segments.Add((name.ToString(), null));
                i += 2;
            }
            else if (path[i] == '[')
            {
                var close = path.IndexOf(']', i);
                if (close < 0 || !int.TryParse(path.AsSpan(i + 1, close - i - 1), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var index))
                {
                    return null;
                }

                segments.Add((null, index));
                i = close + 1;
            }
            else
            {
                var end = path.AsSpan(i).IndexOfAny('.', '[');
                end = end < 0 ? path.Length : i + end;
                segments.Add((path[i..end], null));
                i = end;
            }
        }

        return segments;
    }
}

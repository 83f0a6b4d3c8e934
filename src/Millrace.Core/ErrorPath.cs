using System.Buffers;
using System.Globalization;
using System.Text;

namespace Millrace;

/// <summary>
/// A member or tag path built innermost first, as an exception passes up through the containers of a reader: each
/// container adds its segment (a name, or <c>[index]</c>) and rethrows, so the happy path pays nothing for paths.
/// </summary>
public sealed class ErrorPath
{
    private readonly List<string> _reversed = [];

    /// <summary>Gets a value indicating whether no segment has been added.</summary>
    public bool IsEmpty => _reversed.Count == 0;

    /// <summary>Adds the segment of an enclosing container.</summary>
    /// <param name="segment">A name, or an index as <c>[3]</c>.</param>
    public void Prepend(string segment) => _reversed.Add(segment);

    /// <summary>
    /// Formats the path outermost first: names joined by dots, indices in brackets, and a name that a dot or a bracket
    /// would make ambiguous (one holding <c>.</c>, <c>[</c>, <c>]</c> or <c>'</c>, or an empty one) in brackets and quotes,
    /// as System.Text.Json writes such names: <c>metadata['a.b']</c>, with <c>'</c> and <c>\</c> escaped by <c>\</c>.
    /// </summary>
    /// <returns>The path, such as <c>Level.Sections[3].BlockStates</c>.</returns>
    public override string ToString()
    {
        var path = new StringBuilder();
        for (var i = _reversed.Count - 1; i >= 0; i--)
        {
            var segment = _reversed[i];
            if (IsIndex(segment))
            {
                path.Append(segment);
            }
            else if (segment.Length == 0 || segment.AsSpan().ContainsAny(Ambiguous))
            {
                path.Append("['").Append(segment.Replace(@"\", @"\\", StringComparison.Ordinal).Replace("'", @"\'", StringComparison.Ordinal)).Append("']");
            }
            else
            {
                if (path.Length > 0)
                {
                    path.Append('.');
                }

                path.Append(segment);
            }
        }

        return path.ToString();
    }

    private static readonly SearchValues<char> Ambiguous = SearchValues.Create(".[]'");
    private static readonly SearchValues<char> Digits = SearchValues.Create("0123456789");

    // An index as the readers add it: [3].
    private static bool IsIndex(string segment) =>
        segment.Length > 2 && segment[0] == '[' && segment[^1] == ']' && !segment.AsSpan(1, segment.Length - 2).ContainsAnyExcept(Digits);

    /// <summary>Formats a reason with its byte offset and, when known, what the offset counts and the path.</summary>
    /// <param name="reason">What went wrong.</param>
    /// <param name="byteOffset">Where.</param>
    /// <param name="path">The path to the failing value.</param>
    /// <param name="offsetScope">What the offset counts when it is not the input's own bytes, e.g. "of the decompressed data".</param>
    /// <returns>The message.</returns>
    public static string Describe(string reason, long byteOffset, ErrorPath path, string? offsetScope = null)
    {
        ArgumentNullException.ThrowIfNull(path);
        var scope = string.IsNullOrEmpty(offsetScope) ? string.Empty : " " + offsetScope;
        return path.IsEmpty
            ? string.Create(CultureInfo.InvariantCulture, $"{reason} (byte offset {byteOffset}{scope})")
            : string.Create(CultureInfo.InvariantCulture, $"{reason} (byte offset {byteOffset}{scope}, path {path})");
    }
}

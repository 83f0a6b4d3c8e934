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
    private static readonly SearchValues<char> Ambiguous = SearchValues.Create(".[]'");

    // Innermost first; a name, or an index when the name is null.
    private readonly List<(string? Name, int Index)> _reversed = [];

    /// <summary>Gets a value indicating whether no segment has been added.</summary>
    public bool IsEmpty => _reversed.Count == 0;

    /// <summary>Adds the name of an enclosing container's member or tag.</summary>
    /// <param name="segment">The name, whatever it holds: one that looks like <c>[3]</c> is still a name.</param>
    public void Prepend(string segment)
    {
        ArgumentNullException.ThrowIfNull(segment);
        _reversed.Add((segment, 0));
    }

    /// <summary>Adds the index of an element of an enclosing list or array.</summary>
    /// <param name="index">The index.</param>
    public void Prepend(int index) => _reversed.Add((null, index));

    /// <summary>
    /// Formats the path outermost first: names joined by dots, indices in brackets, and a name that a dot or a bracket
    /// would make ambiguous, or that would break the line (one holding <c>.</c>, <c>[</c>, <c>]</c>, <c>'</c> or a control
    /// or line-separating character, or an empty one) in brackets and quotes, as System.Text.Json writes such
    /// names: <c>metadata['a.b']</c>, with <c>'</c> and <c>\</c> escaped by <c>\</c> and the others as <c>\uXXXX</c>.
    /// </summary>
    /// <returns>The path, such as <c>Level.Sections[3].BlockStates</c>.</returns>
    public override string ToString()
    {
        var path = new StringBuilder();
        for (var i = _reversed.Count - 1; i >= 0; i--)
        {
            var (name, index) = _reversed[i];
            if (name is null)
            {
                AppendIndex(path, index);
            }
            else
            {
                AppendName(path, name);
            }
        }

        return path.ToString();
    }

    /// <summary>
    /// Names a member of what <paramref name="path"/> names, in the same words <see cref="ToString"/> uses: for paths
    /// built outermost first, as a JSON reader's are (<c>$.data</c>, <c>$['a.b']</c>).
    /// </summary>
    /// <param name="path">The container's path, such as <c>$</c>.</param>
    /// <param name="name">The member's name.</param>
    /// <returns>The member's path.</returns>
    public static string Member(string path, string name)
    {
        ArgumentNullException.ThrowIfNull(path);
        ArgumentNullException.ThrowIfNull(name);
        return AppendName(new StringBuilder(path), name).ToString();
    }

    /// <summary>Names an element of the list or array <paramref name="path"/> names, as <see cref="ToString"/> does: <c>$[3]</c>.</summary>
    /// <param name="path">The list's path.</param>
    /// <param name="index">The element's index.</param>
    /// <returns>The element's path.</returns>
    public static string Element(string path, long index)
    {
        ArgumentNullException.ThrowIfNull(path);
        return AppendIndex(new StringBuilder(path), index).ToString();
    }

    private static StringBuilder AppendIndex(StringBuilder path, long index) =>
        path.Append(CultureInfo.InvariantCulture, $"[{index}]");

    private static StringBuilder AppendName(StringBuilder path, string name)
    {
        if (name.Length == 0 || name.AsSpan().ContainsAny(Ambiguous) || name.Any(BreaksLines))
        {
            path.Append("['");
            foreach (var c in name)
            {
                if (c is '\'' or '\\')
                {
                    path.Append('\\').Append(c);
                }
                else if (BreaksLines(c))
                {
                    path.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:X4}");
                }
                else
                {
                    path.Append(c);
                }
            }

            return path.Append("']");
        }

        return (path.Length > 0 ? path.Append('.') : path).Append(name);
    }

    // Characters a one-line message must not print as they are: controls (line feeds, escapes, NUL) and line separators.
    private static bool BreaksLines(char c) => char.IsControl(c) || c is '\u2028' or '\u2029';

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

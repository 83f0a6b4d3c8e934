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

    /// <summary>Formats the path outermost first: names joined by dots, indices in brackets.</summary>
    /// <returns>The path, such as <c>Level.Sections[3].BlockStates</c>.</returns>
    public override string ToString()
    {
        var path = new StringBuilder();
        for (var i = _reversed.Count - 1; i >= 0; i--)
        {
            var segment = _reversed[i];
            if (path.Length > 0 && !segment.StartsWith('['))
            {
                path.Append('.');
            }

            path.Append(segment);
        }

        return path.ToString();
    }

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

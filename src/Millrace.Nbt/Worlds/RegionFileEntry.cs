using System.Globalization;
using System.Text.RegularExpressions;

namespace Millrace.Nbt.Worlds;

/// <summary>A region file of a world's folder, by the coordinates its name gives (<c>r.X.Z.mca</c>).</summary>
/// <param name="Path">The file's path.</param>
/// <param name="X">The region's x, in regions of 32 chunks.</param>
/// <param name="Z">The region's z.</param>
public sealed partial record RegionFileEntry(string Path, int X, int Z)
{
    /// <summary>Lists the region files of a folder, ordered by x then z; none when the folder is missing.</summary>
    /// <param name="folder">A <c>region</c>, <c>entities</c> or <c>poi</c> folder.</param>
    /// <returns>The files whose names are <c>r.X.Z.mca</c>; other files are not region files and are left out.</returns>
    public static IReadOnlyList<RegionFileEntry> List(string folder)
    {
        ArgumentNullException.ThrowIfNull(folder);
        if (!Directory.Exists(folder))
        {
            return [];
        }

        var entries = new List<RegionFileEntry>();
        foreach (var path in Directory.EnumerateFiles(folder, "r.*.mca"))
        {
            if (TryParse(System.IO.Path.GetFileName(path), out var x, out var z))
            {
                entries.Add(new RegionFileEntry(path, x, z));
            }
        }

        entries.Sort(static (a, b) => a.X != b.X ? a.X.CompareTo(b.X) : a.Z.CompareTo(b.Z));
        return entries;
    }

    /// <summary>Reads a region's coordinates from a file name such as <c>r.-1.0.mca</c>.</summary>
    /// <param name="fileName">The name, without folders.</param>
    /// <param name="x">The region's x.</param>
    /// <param name="z">The region's z.</param>
    /// <returns>Whether the name is a region file's, as the game writes it (no leading zeros, no <c>-0</c>).</returns>
    public static bool TryParse(string fileName, out int x, out int z)
    {
        ArgumentNullException.ThrowIfNull(fileName);
        var match = Name().Match(fileName);
        x = z = 0;
        // Only the names the game writes: r.01.0.mca or r.-0.0.mca would be a second file for the same chunks.
        return match.Success
            && int.TryParse(match.Groups[1].ValueSpan, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out x)
            && int.TryParse(match.Groups[2].ValueSpan, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out z)
            && match.Groups[1].ValueSpan.SequenceEqual(x.ToString(CultureInfo.InvariantCulture))
            && match.Groups[2].ValueSpan.SequenceEqual(z.ToString(CultureInfo.InvariantCulture));
    }

    [GeneratedRegex(@"^r\.(-?[0-9]+)\.(-?[0-9]+)\.mca$", RegexOptions.CultureInvariant)]
    private static partial Regex Name();
}

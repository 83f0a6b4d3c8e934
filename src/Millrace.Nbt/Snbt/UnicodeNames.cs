using System.Globalization;
using System.IO.Compression;
using System.Text;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// Java's <c>Character.codePointOf</c>, which 1.21.5's <c>\N{…}</c> escape uses: a character's Unicode name in any case,
/// spaces around it ignored (<c>snowman</c> is U+2603), or, for a character the name list leaves unnamed (an ideograph,
/// a Hangul syllable, a private use or surrogate code point), its block and hex code point as Java spells them
/// (<c>CJK UNIFIED IDEOGRAPHS 4E00</c>, not Unicode's <c>CJK UNIFIED IDEOGRAPH-4E00</c>). The names are Unicode 15.0's,
/// the version of Java 21, which Minecraft 1.21.5 requires; the table is made by <c>tools/unicode-names</c> and read on
/// the first named escape.
/// </summary>
internal static class UnicodeNames
{
    private static readonly Lazy<Table> Names = new(Load);

    /// <summary>Finds the code point <paramref name="name"/> names.</summary>
    public static bool TryGetCodePoint(string name, out int codePoint)
    {
        var key = name.Trim(' ').ToUpperInvariant();
        var table = Names.Value;
        if (table.ByName.TryGetValue(key, out codePoint))
        {
            return true;
        }

        // Java parses the hex after the last space, then takes it only when that code point's name is exactly the key.
        var space = key.LastIndexOf(' ');
        if (space > 0 && int.TryParse(key.AsSpan(space + 1), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out codePoint))
        {
            foreach (var (start, end, block) in table.Unnamed)
            {
                if (start <= codePoint && codePoint <= end)
                {
                    return key == string.Create(CultureInfo.InvariantCulture, $"{block} {codePoint:X}");
                }
            }
        }

        codePoint = -1;
        return false;
    }

    private static Table Load()
    {
        using var resource = typeof(UnicodeNames).Assembly.GetManifestResourceStream("Millrace.Nbt.UnicodeNames.br")
            ?? throw new InvalidOperationException("The character name table is missing from Millrace.Nbt.");
        using var brotli = new BrotliStream(resource, CompressionMode.Decompress);
        using var reader = new StreamReader(brotli, Encoding.ASCII);

        // A line per name, its code point the step from the last one's in hex (empty for 1); then "*start end BLOCK".
        var byName = new Dictionary<string, int>(40_000, StringComparer.Ordinal);
        var unnamed = new List<(int, int, string)>();
        var codePoint = -1;
        while (reader.ReadLine() is { } line)
        {
            var space = line.IndexOf(' ', StringComparison.Ordinal);
            if (line.StartsWith('*'))
            {
                var end = line.IndexOf(' ', space + 1);
                unnamed.Add((Hex(line.AsSpan(1, space - 1)), Hex(line.AsSpan(space + 1, end - space - 1)), line[(end + 1)..]));
                continue;
            }

            codePoint += space == 0 ? 1 : Hex(line.AsSpan(0, space));
            byName[line[(space + 1)..]] = codePoint;
        }

        return new Table(byName, unnamed);
    }

    private static int Hex(ReadOnlySpan<char> text) => int.Parse(text, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture);

    private sealed record Table(Dictionary<string, int> ByName, List<(int Start, int End, string Block)> Unnamed);
}

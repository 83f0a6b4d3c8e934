// Merges Java's character names (JavaNames.java: Unicode 13.0, the data of the JDK on the machine that made the table)
// with ICU's (IcuNames.c: Unicode 15.0, the version of Java 21, which Minecraft 1.21.5 requires) into the table
// Millrace.Nbt reads \N{…} escapes with, Brotli-compressed. Usage: dotnet run merge.cs java.txt icu.txt UnicodeNames.br
using System.Globalization;
using System.IO.Compression;
using System.Text;
using System.Text.RegularExpressions;

var javaNamed = new SortedDictionary<int, string>();
var ranges = new List<(int Start, int End, string Block)>();
foreach (var line in File.ReadLines(args[0]))
{
    if (line.StartsWith('*'))
    {
        var parts = line[1..].Split(' ', 3);
        ranges.Add((Hex(parts[0]), Hex(parts[1]), parts[2]));
    }
    else
    {
        var space = line.IndexOf(' ');
        javaNamed[Hex(line[..space])] = line[(space + 1)..];
    }
}

bool JavaAssigned(int cp) => javaNamed.ContainsKey(cp) || ranges.Exists(r => r.Start <= cp && cp <= r.End);

var icu = File.ReadLines(args[1]).Select(line => line.Split(';')).Select(p => (Cp: Hex(p[0]), Name: p[1], Block: p[2])).ToList();

// Java names a block in upper case with spaces; learn its spelling for the blocks it already had, from its own ranges.
var javaBlock = new Dictionary<string, string>();
foreach (var (cp, _, block) in icu)
{
    foreach (var range in ranges.Where(r => r.Start <= cp && cp <= r.End))
    {
        javaBlock.TryAdd(block, range.Block);
    }
}

// Names never change: where both name a code point they must agree (ICU gives controls no name; Java's are kept).
var disagreements = icu.Where(c => c.Name.Length > 0 && javaNamed.TryGetValue(c.Cp, out var name) && name != c.Name).ToList();
if (disagreements.Count > 0)
{
    throw new InvalidOperationException($"Java and ICU disagree on {disagreements.Count} names, e.g. U+{disagreements[0].Cp:X4}.");
}

// Code points added after Java's version: a name of their own, or (those UnicodeData gives as ranges) their block's.
var rangeName = new Regex("^(CJK UNIFIED IDEOGRAPH-|TANGUT IDEOGRAPH-|HANGUL SYLLABLE )");
var named = new SortedDictionary<int, string>(javaNamed);
foreach (var (cp, name, block) in icu.Where(c => !JavaAssigned(c.Cp)))
{
    if (name.Length > 0 && !rangeName.IsMatch(name))
    {
        named[cp] = name;
    }
    else
    {
        ranges.Add((cp, cp, javaBlock.GetValueOrDefault(block) ?? block.Replace('_', ' ').ToUpperInvariant()));
    }
}

ranges.Sort();
var merged = new List<(int Start, int End, string Block)>();
foreach (var range in ranges)
{
    if (merged.Count > 0 && merged[^1].Block == range.Block && merged[^1].End + 1 == range.Start)
    {
        merged[^1] = (merged[^1].Start, range.End, range.Block);
    }
    else
    {
        merged.Add(range);
    }
}

// One line a name, its code point as the step from the last one's in hex (empty for 1); then the block ranges.
var text = new StringBuilder();
var previous = -1;
foreach (var (cp, name) in named)
{
    text.Append(cp - previous == 1 ? string.Empty : (cp - previous).ToString("X", CultureInfo.InvariantCulture)).Append(' ').Append(name).Append('\n');
    previous = cp;
}

foreach (var (start, end, block) in merged)
{
    text.Append(CultureInfo.InvariantCulture, $"*{start:X} {end:X} {block}\n");
}

using (var output = File.Create(args[2]))
using (var brotli = new BrotliStream(output, CompressionLevel.SmallestSize))
{
    brotli.Write(Encoding.ASCII.GetBytes(text.ToString()));
}

Console.WriteLine($"{named.Count} names, {merged.Count} block ranges");

static int Hex(string text) => int.Parse(text, NumberStyles.HexNumber, CultureInfo.InvariantCulture);

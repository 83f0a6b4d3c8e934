using System.Globalization;
using System.Text;
using Millrace.Nbt.Snbt;

namespace Millrace.Nbt.Tests.Snbt;

/// <summary>
/// The SNBT case table (<c>snbt-cases.tsv</c>): an input and what each game reads it as. A line is four tab-separated
/// columns: the input, with <c>\\</c>, <c>\t</c>, <c>\n</c>, <c>\r</c> and <c>\uXXXX</c> escaped so the file stays ASCII; the
/// 1.21.4 verdict; the 1.21.5+ verdict; where the case comes from. A verdict is the tree in <c>CanonicalTree</c>'s
/// form, or <c>!</c> for a refusal, optionally followed by the offset the refusal must name (<c>!@3</c>).
/// </summary>
internal static class SnbtCaseTable
{
    public static IReadOnlyList<SnbtCase> Cases { get; } = Load();

    public static string Unescape(string field)
    {
        var text = new StringBuilder();
        for (var i = 0; i < field.Length; i++)
        {
            if (field[i] != '\\')
            {
                text.Append(field[i]);
                continue;
            }

            var c = field[++i];
            switch (c)
            {
                case 't':
                    text.Append('\t');
                    break;
                case 'n':
                    text.Append('\n');
                    break;
                case 'r':
                    text.Append('\r');
                    break;
                case 'u':
                    text.Append((char)int.Parse(field.AsSpan(i + 1, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture));
                    i += 4;
                    break;
                default:
                    text.Append(c);
                    break;
            }
        }

        return text.ToString();
    }

    private static List<SnbtCase> Load()
    {
        var path = Path.Combine(AppContext.BaseDirectory, "Snbt", "snbt-cases.tsv");
        var cases = new List<SnbtCase>();
        var number = 0;
        foreach (var line in File.ReadLines(path))
        {
            number++;
            if (line.Length == 0 || line.StartsWith('#'))
            {
                continue;
            }

            var columns = line.Split('\t');
            if (columns.Length != 4)
            {
                throw new InvalidDataException($"snbt-cases.tsv line {number}: {columns.Length} columns, not 4.");
            }

            cases.Add(new SnbtCase(number, Unescape(columns[0]), columns[0], columns[1], columns[2], columns[3]));
        }

        return cases;
    }
}

/// <summary>One line of the table.</summary>
internal sealed record SnbtCase(int Line, string Input, string Written, string Legacy, string Modern, string Source)
{
    public string Verdict(SnbtSyntax syntax) => syntax == SnbtSyntax.Legacy ? Legacy : Modern;

    public override string ToString() => $"line {Line}: {Written}";
}

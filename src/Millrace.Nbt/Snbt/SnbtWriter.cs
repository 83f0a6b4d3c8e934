using System.Globalization;
using System.Text;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// Writes SNBT that both the legacy and the 1.21.5+ parsers read back to the same tree: every number carries its
/// type suffix (ints excepted), floats use the shortest round-trip form, names are quoted only when they must be.
/// </summary>
public static class SnbtWriter
{
    /// <summary>Formats a tag as SNBT.</summary>
    /// <param name="tag">The tag.</param>
    /// <param name="pretty">Whether to break lines and indent by four spaces.</param>
    /// <returns>The SNBT text.</returns>
    public static string Write(NbtTag tag, bool pretty = false)
    {
        ArgumentNullException.ThrowIfNull(tag);
        var text = new StringBuilder();
        Append(text, tag, pretty, 0);
        return text.ToString();
    }

    private static void Append(StringBuilder text, NbtTag tag, bool pretty, int depth)
    {
        // A tree built by hand can nest deeper than any reader allows: refuse it rather than overflow the stack.
        if (!StackRoom.Enough(depth))
        {
            throw new ArgumentException("The tree nests too deeply to write on this thread's stack.", nameof(tag));
        }

        var culture = CultureInfo.InvariantCulture;
        switch (tag)
        {
            case NbtByte value:
                text.Append(value.Value.ToString(culture)).Append('b');
                break;
            case NbtShort value:
                text.Append(value.Value.ToString(culture)).Append('s');
                break;
            case NbtInt value:
                text.Append(value.Value.ToString(culture));
                break;
            case NbtLong value:
                text.Append(value.Value.ToString(culture)).Append('L');
                break;
            case NbtFloat value:
                text.Append(FormatReal(value.Value)).Append('f');
                break;
            case NbtDouble value:
                text.Append(FormatReal(value.Value)).Append('d');
                break;
            case NbtString value:
                AppendQuoted(text, value.Value);
                break;
            case NbtByteArray value:
                AppendArray(text, "B;", value.Value.Length, i => ((sbyte)value.Value[i]).ToString(culture) + "b");
                break;
            case NbtIntArray value:
                AppendArray(text, "I;", value.Value.Length, i => value.Value[i].ToString(culture));
                break;
            case NbtLongArray value:
                AppendArray(text, "L;", value.Value.Length, i => value.Value[i].ToString(culture) + "L");
                break;
            case NbtList list:
                AppendContainer(text, '[', ']', list.Count, pretty, depth, (i, inner) => Append(text, list[i], pretty, inner));
                break;
            case NbtCompound compound:
                var entries = compound.ToArray();
                AppendContainer(text, '{', '}', entries.Length, pretty, depth, (i, inner) =>
                {
                    AppendName(text, entries[i].Key);
                    text.Append(pretty ? ": " : ":");
                    Append(text, entries[i].Value, pretty, inner);
                });
                break;
        }
    }

    private static string FormatReal(float value) =>
        float.IsFinite(value) ? WithPoint(value.ToString("R", CultureInfo.InvariantCulture)) : NonFinite(value);

    private static string FormatReal(double value) =>
        double.IsFinite(value) ? WithPoint(value.ToString("R", CultureInfo.InvariantCulture)) : NonFinite(value);

    private static string NonFinite(double value) => double.IsNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";

    private static string WithPoint(string digits) =>
        digits.Contains('.', StringComparison.Ordinal) || digits.Contains('E', StringComparison.Ordinal) ? digits : digits + ".0";

    private static void AppendArray(StringBuilder text, string prefix, int count, Func<int, string> element)
    {
        text.Append('[').Append(prefix);
        for (var i = 0; i < count; i++)
        {
            text.Append(i == 0 ? string.Empty : ",").Append(element(i));
        }

        text.Append(']');
    }

    private static void AppendContainer(StringBuilder text, char open, char close, int count, bool pretty, int depth, Action<int, int> element)
    {
        text.Append(open);
        if (count == 0)
        {
            text.Append(close);
            return;
        }

        for (var i = 0; i < count; i++)
        {
            if (i > 0)
            {
                text.Append(',');
            }

            if (pretty)
            {
                text.Append('\n').Append(' ', (depth + 1) * 4);
            }

            element(i, depth + 1);
        }

        if (pretty)
        {
            text.Append('\n').Append(' ', depth * 4);
        }

        text.Append(close);
    }

    private static void AppendName(StringBuilder text, string name)
    {
        if (name.Length > 0 && name.AsSpan().IndexOfAnyExcept(SnbtSyntax.UnquotedChars) < 0)
        {
            text.Append(name);
            return;
        }

        AppendQuoted(text, name);
    }

    private static void AppendQuoted(StringBuilder text, string value)
    {
        var quote = value.Contains('"', StringComparison.Ordinal) && !value.Contains('\'', StringComparison.Ordinal) ? '\'' : '"';
        text.Append(quote);
        foreach (var c in value)
        {
            switch (c)
            {
                case '\\':
                    text.Append(@"\\");
                    break;
                case '\n':
                    text.Append(@"\n");
                    break;
                case '\r':
                    text.Append(@"\r");
                    break;
                case '\t':
                    text.Append(@"\t");
                    break;
                default:
                    if (c == quote)
                    {
                        text.Append('\\');
                    }

                    text.Append(c);
                    break;
            }
        }

        text.Append(quote);
    }
}

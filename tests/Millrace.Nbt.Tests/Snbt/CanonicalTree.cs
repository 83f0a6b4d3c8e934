using System.Globalization;
using System.Text;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Snbt;

/// <summary>
/// A tree in one unambiguous line for the SNBT case table, written here rather than by <c>SnbtWriter</c> so the table
/// does not check the library with itself: <c>1b</c> <c>1s</c> <c>1</c> <c>1L</c> <c>1.5f</c> <c>1.5d</c>, strings in double
/// quotes with <c>\\</c>, <c>\"</c> and <c>\uXXXX</c> for anything outside printable ASCII, <c>[B;1,2]</c>, <c>[a,b]</c>, <c>{"k":v}</c>.
/// </summary>
internal static class CanonicalTree
{
    public static string Print(NbtTag tag)
    {
        var text = new StringBuilder();
        Append(text, tag);
        return text.ToString();
    }

    private static void Append(StringBuilder text, NbtTag tag)
    {
        var culture = CultureInfo.InvariantCulture;
        switch (tag)
        {
            case NbtByte v:
                text.Append(v.Value.ToString(culture)).Append('b');
                break;
            case NbtShort v:
                text.Append(v.Value.ToString(culture)).Append('s');
                break;
            case NbtInt v:
                text.Append(v.Value.ToString(culture));
                break;
            case NbtLong v:
                text.Append(v.Value.ToString(culture)).Append('L');
                break;
            case NbtFloat v:
                text.Append(v.Value.ToString("R", culture)).Append('f');
                break;
            case NbtDouble v:
                text.Append(v.Value.ToString("R", culture)).Append('d');
                break;
            case NbtString v:
                AppendString(text, v.Value);
                break;
            case NbtByteArray v:
                text.Append("[B;").AppendJoin(',', v.Value.Select(b => ((sbyte)b).ToString(culture))).Append(']');
                break;
            case NbtIntArray v:
                text.Append("[I;").AppendJoin(',', v.Value.Select(i => i.ToString(culture))).Append(']');
                break;
            case NbtLongArray v:
                text.Append("[L;").AppendJoin(',', v.Value.Select(l => l.ToString(culture))).Append(']');
                break;
            case NbtList list:
                text.Append('[');
                for (var i = 0; i < list.Count; i++)
                {
                    Append(text.Append(i == 0 ? string.Empty : ","), list[i]);
                }

                text.Append(']');
                break;
            case NbtCompound compound:
                text.Append('{');
                var first = true;
                foreach (var (name, value) in compound)
                {
                    AppendString(text.Append(first ? string.Empty : ","), name);
                    Append(text.Append(':'), value);
                    first = false;
                }

                text.Append('}');
                break;
        }
    }

    private static void AppendString(StringBuilder text, string value)
    {
        text.Append('"');
        foreach (var c in value)
        {
            _ = c switch
            {
                '"' => text.Append("\\\""),
                '\\' => text.Append("\\\\"),
                < ' ' or > '~' => text.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:X4}"),
                _ => text.Append(c),
            };
        }

        text.Append('"');
    }
}

using System.Globalization;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// Java's <c>UUID.fromString</c>, which 1.21.5's <c>uuid(…)</c> uses: exactly four dashes and at most 36 characters,
/// each group one or more digits in Java's sense (any Unicode decimal digit, ASCII and full-width letters), with an
/// optional sign, masked to its field's width. So <c>0-0-0-0-0</c> is read, and the 32 digits without dashes are not.
/// </summary>
internal static class JavaUuid
{
    /// <summary>Parses <paramref name="text"/> into the four ints Minecraft stores a UUID as, most significant first.</summary>
    public static bool TryParse(string text, out int[] ints)
    {
        ints = [];
        if (text.Length > 36)
        {
            return false;
        }

        Span<int> dashes = stackalloc int[5];
        var from = 0;
        for (var i = 0; i < dashes.Length; i++)
        {
            dashes[i] = text.IndexOf('-', Math.Min(from, text.Length));
            from = dashes[i] + 1;
        }

        if (dashes[3] < 0 || dashes[4] >= 0)
        {
            return false;
        }

        if (!TryParseLong(text, 0, dashes[0], out var a) || !TryParseLong(text, dashes[0] + 1, dashes[1], out var b)
            || !TryParseLong(text, dashes[1] + 1, dashes[2], out var c) || !TryParseLong(text, dashes[2] + 1, dashes[3], out var d)
            || !TryParseLong(text, dashes[3] + 1, text.Length, out var e))
        {
            return false;
        }

        var most = (((a & 0xFFFFFFFFL) << 16 | (b & 0xFFFFL)) << 16) | (c & 0xFFFFL);
        var least = ((d & 0xFFFFL) << 48) | (e & 0xFFFFFFFFFFFFL);
        ints = [(int)(most >> 32), (int)most, (int)(least >> 32), (int)least];
        return true;
    }

    /// <summary>Java's <c>Long.parseLong(text, begin, end, 16)</c>: a sign, then one or more hex digits, within the range of a long.</summary>
    private static bool TryParseLong(string text, int begin, int end, out long value)
    {
        value = 0;
        if (begin >= end)
        {
            return false;
        }

        var negative = text[begin] == '-';
        var position = text[begin] is '-' or '+' ? begin + 1 : begin;
        if (position == end)
        {
            return false;
        }

        UInt128 magnitude = 0;
        for (; position < end; position++)
        {
            var digit = Digit(text[position]);
            if (digit < 0)
            {
                return false;
            }

            magnitude = (magnitude * 16) + (uint)digit;
            if (magnitude > (UInt128)long.MaxValue + 1)
            {
                return false;
            }
        }

        if (!negative && magnitude > long.MaxValue)
        {
            return false;
        }

        value = negative ? (long)(0 - (ulong)magnitude) : (long)magnitude;
        return true;
    }

    /// <summary>Java's <c>Character.digit(c, 16)</c>.</summary>
    private static int Digit(char c)
    {
        var value = c switch
        {
            >= 'a' and <= 'z' => c - 'a' + 10,
            >= 'A' and <= 'Z' => c - 'A' + 10,
            >= '\uFF41' and <= '\uFF5A' => c - '\uFF41' + 10,
            >= '\uFF21' and <= '\uFF3A' => c - '\uFF21' + 10,
            _ => CharUnicodeInfo.GetUnicodeCategory(c) == UnicodeCategory.DecimalDigitNumber ? CharUnicodeInfo.GetDecimalDigitValue(c) : -1,
        };
        return value < 16 ? value : -1;
    }
}

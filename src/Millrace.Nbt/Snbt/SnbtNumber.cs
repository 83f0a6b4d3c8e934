using System.Globalization;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Snbt;

/// <summary>Recognizes SNBT number tokens of both syntaxes; anything else is an unquoted string.</summary>
internal static class SnbtNumber
{
    /// <summary>Parses <paramref name="token"/> as a number when it has a number's shape.</summary>
    /// <param name="token">An unquoted token.</param>
    /// <param name="offset">Where the token starts, for errors.</param>
    /// <param name="tag">The number tag.</param>
    /// <returns><see langword="false"/> when the token is not shaped like a number (it is then a string).</returns>
    /// <exception cref="NbtFormatException">The token is shaped like a number but out of its type's range.</exception>
    public static bool TryParse(string token, int offset, out NbtTag tag)
    {
        tag = null!;
        var text = token.AsSpan();
        if (TryParseNonFinite(text, out tag))
        {
            return true;
        }

        var negative = text[0] == '-';
        var body = text[0] is '-' or '+' ? text[1..] : text;
        if (body.IsEmpty || !char.IsAsciiDigit(body[0]) && body[0] != '.')
        {
            return false;
        }

        if (body.Length > 2 && body[0] == '0' && (body[1] | 0x20) is 'x' or 'b' && IsRadixLiteral(body))
        {
            return TryParseInteger(body[2..], (body[1] | 0x20) == 'x' ? 16 : 2, negative, token, offset, out tag);
        }

        var suffix = char.ToLowerInvariant(body[^1]);
        if (suffix is 'f' or 'd' || body.ContainsAny('.', 'e', 'E'))
        {
            return TryParseReal(text, suffix, token, offset, out tag);
        }

        return TryParseInteger(body, 10, negative, token, offset, out tag);
    }

    private static bool IsRadixLiteral(ReadOnlySpan<char> body)
    {
        // "0b" followed by nothing but a type suffix is the legacy byte 0; with binary digits it is a literal.
        var radix = (body[1] | 0x20) == 'x' ? 16 : 2;
        var digits = StripSuffix(body[2..], radix, out _, out _);
        return !digits.IsEmpty && IsDigits(digits, radix);
    }

    private static bool TryParseInteger(ReadOnlySpan<char> body, int radix, bool negative, string token, int offset, out NbtTag tag)
    {
        tag = null!;
        var digits = StripSuffix(body, radix, out var type, out var unsigned);
        if (digits.IsEmpty || !IsDigits(digits, radix) || digits[0] == '_' || digits[^1] == '_')
        {
            return false;
        }

        ulong magnitude = 0;
        foreach (var c in digits)
        {
            if (c == '_')
            {
                continue;
            }

            var digit = (ulong)HexValue(c);
            if (magnitude > (ulong.MaxValue - digit) / (ulong)radix)
            {
                throw OutOfRange(token, offset);
            }

            magnitude = (magnitude * (ulong)radix) + digit;
        }

        var bits = type switch { 'b' => 8, 's' => 16, 'l' => 64, _ => 32 };
        long value;
        if (unsigned == true || (unsigned is null && radix != 10))
        {
            // Unsigned (and unmarked hex or binary) literals may use the whole width: 0xFFub and 255ub are -1.
            if ((negative && unsigned == true) || (bits < 64 && magnitude >= 1UL << bits))
            {
                throw OutOfRange(token, offset);
            }

            var whole = bits == 64 ? (long)magnitude : SignExtend(magnitude, bits);
            value = negative ? -whole : whole;
        }
        else
        {
            var limit = bits == 64 ? (ulong)long.MaxValue : (1UL << (bits - 1)) - 1;
            if (magnitude > limit + (negative ? 1UL : 0UL))
            {
                throw OutOfRange(token, offset);
            }

            value = negative ? (long)(0 - magnitude) : (long)magnitude;
        }

        tag = type switch
        {
            'b' => new NbtByte((sbyte)value),
            's' => new NbtShort((short)value),
            'l' => new NbtLong(value),
            _ => new NbtInt((int)value),
        };
        return true;
    }

    private static ReadOnlySpan<char> StripSuffix(ReadOnlySpan<char> body, int radix, out char type, out bool? unsigned)
    {
        type = 'i';
        unsigned = null;
        if (body.IsEmpty)
        {
            return body;
        }

        // A type letter may follow a sign marker: "1ss" is a signed short, "255ub" an unsigned byte. In hex, "b" is a
        // digit, so a byte suffix there needs its marker ("0xFFub").
        var last = char.ToLowerInvariant(body[^1]);
        var marked = body.Length > 1 && char.ToLowerInvariant(body[^2]) is 's' or 'u';
        if (!(last is 's' or 'i' or 'l' || (last == 'b' && (radix != 16 || marked))))
        {
            return body;
        }

        type = last;
        body = body[..^1];
        if (marked)
        {
            unsigned = char.ToLowerInvariant(body[^1]) == 'u';
            body = body[..^1];
        }

        return body;
    }

    private static bool TryParseReal(ReadOnlySpan<char> text, char suffix, string token, int offset, out NbtTag tag)
    {
        tag = null!;
        var digits = suffix is 'f' or 'd' ? text[..^1] : text;
        if (digits.Contains('_'))
        {
            // A number token can be as long as the input: only short ones go on the stack.
            Span<char> buffer = digits.Length <= 256 ? stackalloc char[digits.Length] : new char[digits.Length];
            var length = 0;
            foreach (var c in digits)
            {
                if (c != '_')
                {
                    buffer[length++] = c;
                }
            }

            digits = buffer[..length].ToArray();
        }

        const NumberStyles Styles = NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent;
        if (suffix == 'f')
        {
            if (!float.TryParse(digits, Styles, CultureInfo.InvariantCulture, out var single))
            {
                return false;
            }

            // The platform rounds a literal past the type's range to infinity; a finite literal is never read as one.
            if (float.IsInfinity(single))
            {
                throw OutOfRange(token, offset);
            }

            tag = new NbtFloat(single);
            return true;
        }

        if (!double.TryParse(digits, Styles, CultureInfo.InvariantCulture, out var number))
        {
            return false;
        }

        if (double.IsInfinity(number))
        {
            throw OutOfRange(token, offset);
        }

        tag = new NbtDouble(number);
        return true;
    }

    private static bool TryParseNonFinite(ReadOnlySpan<char> text, out NbtTag tag)
    {
        tag = null!;
        var suffix = char.ToLowerInvariant(text[^1]);
        var body = suffix is 'f' or 'd' && !text.EndsWith("Infinity", StringComparison.Ordinal) ? text[..^1] : text;
        double value;
        if (body.SequenceEqual("NaN"))
        {
            value = double.NaN;
        }
        else if (body.SequenceEqual("Infinity") || body.SequenceEqual("+Infinity"))
        {
            value = double.PositiveInfinity;
        }
        else if (body.SequenceEqual("-Infinity"))
        {
            value = double.NegativeInfinity;
        }
        else
        {
            return false;
        }

        tag = suffix == 'f' && body.Length < text.Length ? new NbtFloat((float)value) : new NbtDouble(value);
        return true;
    }

    private static bool IsDigits(ReadOnlySpan<char> digits, int radix)
    {
        foreach (var c in digits)
        {
            if (c != '_' && HexValue(c) >= radix)
            {
                return false;
            }
        }

        return true;
    }

    private static int HexValue(char c) => c switch
    {
        >= '0' and <= '9' => c - '0',
        >= 'a' and <= 'f' => c - 'a' + 10,
        >= 'A' and <= 'F' => c - 'A' + 10,
        _ => 99,
    };

    private static long SignExtend(ulong value, int bits) => (long)(value << (64 - bits)) >> (64 - bits);

    private static NbtFormatException OutOfRange(string token, int offset) =>
        new(string.Create(CultureInfo.InvariantCulture, $"The number '{token}' is out of its type's range."), offset);
}

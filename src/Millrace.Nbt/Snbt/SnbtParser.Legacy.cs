using System.Globalization;
using System.Text;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// The grammar of Minecraft 1.21.4 and earlier (its <c>TagParser</c> over Brigadier's string reader). Whitespace may
/// come between tokens but not inside them: an array opens with exactly <c>[B;</c>, <c>[I;</c> or <c>[L;</c>. An
/// unquoted token is typed by its whole text: a number only when it matches one of the game's number patterns and fits
/// the type, else a string (<c>07</c>, <c>128b</c>, <c>1e5</c>, <c>NaN</c>); a float or double too large for its type
/// is infinity, as Java parses it. Quoted strings escape only <c>\\</c> and their own quote. Lists and arrays hold one
/// type: a list's first element sets it, an array's elements carry their suffix (<c>[B;1b]</c>, <c>[L;1L]</c>).
/// </summary>
public sealed partial class SnbtParser
{
    private NbtTag ReadLegacyValue()
    {
        SkipWhitespace();
        if (AtEnd)
        {
            throw ErrorAt("Expected a value.", _position);
        }

        switch (Current)
        {
            case '{':
                {
                    Enter(_position);
                    _position++;
                    var compound = ReadCompoundMembers(static p => p.ReadLegacyName(), static p => p.ReadLegacyValue());
                    Exit();
                    return compound;
                }

            case '[':
                // An array only when its letter and ';' come at once after '[': "[ I;" is a list.
                return _position + 2 < _text.Length && !SnbtCharacters.IsQuote(_text[_position + 1]) && _text[_position + 2] == ';'
                    ? ReadLegacyArray()
                    : ReadLegacyList();
            case '"' or '\'':
                return new NbtString(ReadLegacyQuoted());
            default:
                var start = _position;
                var token = ReadUnquotedRun();
                return token.Length > 0 ? LegacyToken(token) : throw ErrorAt("Expected a value.", start);
        }
    }

    private string ReadLegacyName() => !AtEnd && SnbtCharacters.IsQuote(Current) ? ReadLegacyQuoted() : ReadUnquotedRun();

    private NbtList ReadLegacyList()
    {
        Enter(_position);
        _position++;
        var list = new NbtList();
        while (true)
        {
            SkipWhitespace();
            if (AtEnd)
            {
                throw ErrorAt("Expected a value or ']'.", _position);
            }

            if (Current == ']')
            {
                break;
            }

            var start = _position;
            try
            {
                var element = ReadLegacyValue();
                if (list.Count > 0 && element.Type != list.ElementType)
                {
                    throw ErrorAt($"{Article(element.Type)} {element.Type} cannot join a list of {list.ElementType}: before 1.21.5 a list holds one type.", start);
                }

                list.Add(element);
            }
            catch (NbtFormatException exception) when (exception.PrependPathAndPropagate(list.Count))
            {
                throw;
            }

            if (!TryConsume(','))
            {
                break;
            }
        }

        Expect(']', "',' or ']'");
        Exit();
        return list;
    }

    private NbtTag ReadLegacyArray()
    {
        _position++;
        var kindAt = _position;
        var kind = _text[_position];
        _position += 2;
        var elementType = kind switch
        {
            'B' => NbtTagType.Byte,
            'I' => NbtTagType.Int,
            'L' => NbtTagType.Long,
            _ => throw ErrorAt($"Invalid array type '{kind}': expected B, I or L.", kindAt),
        };

        var values = new List<long>();
        while (true)
        {
            SkipWhitespace();
            if (AtEnd)
            {
                throw ErrorAt("Expected a value or ']'.", _position);
            }

            if (Current == ']')
            {
                break;
            }

            var start = _position;
            values.Add(ReadLegacyValue() switch
            {
                NbtByte value when elementType == NbtTagType.Byte => value.Value,
                NbtInt value when elementType == NbtTagType.Int => value.Value,
                NbtLong value when elementType == NbtTagType.Long => value.Value,
                var other => throw ErrorAt($"{Article(other.Type)} {other.Type} cannot be an element of a [{kind};] array: before 1.21.5 every element carries the array's type ({LegacyExample(kind)}).", start),
            });
            if (!TryConsume(','))
            {
                break;
            }
        }

        Expect(']', "',' or ']'");
        return kind switch
        {
            'B' => new NbtByteArray(values.ConvertAll(static v => (byte)v).ToArray()),
            'I' => new NbtIntArray(values.ConvertAll(static v => (int)v).ToArray()),
            _ => new NbtLongArray([.. values]),
        };

        static string LegacyExample(char kind) => kind switch { 'B' => "1b", 'I' => "1", _ => "1L" };
    }

    private static string Article(NbtTagType type) => type is NbtTagType.Int or NbtTagType.IntArray ? "An" : "A";

    private string ReadLegacyQuoted()
    {
        var start = _position;
        var quote = _text[_position++];
        var text = new StringBuilder();
        while (!AtEnd)
        {
            var c = _text[_position++];
            if (c == quote)
            {
                return text.ToString();
            }

            if (c == '\\')
            {
                // Only the backslash and the string's own quote are escaped.
                if (AtEnd || (Current != quote && Current != '\\'))
                {
                    throw ErrorAt($"Invalid escape: before 1.21.5 a backslash escapes only '\\' and {quote}.", AtEnd ? _position : _position - 1);
                }

                c = _text[_position++];
            }

            text.Append(c);
        }

        throw ErrorAt(string.Create(CultureInfo.InvariantCulture, $"Expected {quote} to close the string that starts at offset {Offset(start)}."), _position);
    }

    /// <summary>
    /// Types an unquoted token as the game did, by trying its patterns on the whole text in its order: float, byte, long,
    /// short, int, double with a suffix, double with a point. The first that matches decides: an integer out of its type's
    /// range (<c>128b</c>) is then a string, as the game caught Java's parse error; a float or double past its range is
    /// Java's infinity, not an error.
    /// </summary>
    private static NbtTag LegacyToken(string token)
    {
        const NumberStyles RealStyles = NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent;
        var shape = LegacyNumberShape.Of(token);
        var body = token.AsSpan(0, shape.Suffix == '\0' ? token.Length : token.Length - 1);
        var culture = CultureInfo.InvariantCulture;
        if (shape.IsReal && shape.Suffix == 'f')
        {
            return new NbtFloat(float.Parse(body, RealStyles, culture));
        }

        if (shape.IsInteger && shape.Suffix is 'b' or 's' or 'l' or '\0')
        {
            return shape.Suffix switch
            {
                'b' => sbyte.TryParse(body, NumberStyles.AllowLeadingSign, culture, out var b) ? new NbtByte(b) : new NbtString(token),
                'l' => long.TryParse(body, NumberStyles.AllowLeadingSign, culture, out var l) ? new NbtLong(l) : new NbtString(token),
                's' => short.TryParse(body, NumberStyles.AllowLeadingSign, culture, out var s) ? new NbtShort(s) : new NbtString(token),
                _ => int.TryParse(body, NumberStyles.AllowLeadingSign, culture, out var i) ? new NbtInt(i) : new NbtString(token),
            };
        }

        if (shape.IsReal && (shape.Suffix == 'd' || (shape.Suffix == '\0' && shape.HasPoint)))
        {
            return new NbtDouble(double.Parse(body, RealStyles, culture));
        }

        // true and false in any case; anything else is a string.
        return token.Equals("true", StringComparison.OrdinalIgnoreCase) ? new NbtByte(1)
            : token.Equals("false", StringComparison.OrdinalIgnoreCase) ? new NbtByte(0)
            : new NbtString(token);
    }

    /// <summary>Which of the game's number patterns a token's text fits, read once.</summary>
    /// <param name="IsInteger">Whether it is <c>[-+]?(0|[1-9][0-9]*)</c> before its suffix.</param>
    /// <param name="IsReal">Whether it is <c>[-+]?([0-9]+[.]?|[0-9]*[.][0-9]+)(e[-+]?[0-9]+)?</c> before its suffix.</param>
    /// <param name="HasPoint">Whether it has a decimal point.</param>
    /// <param name="Suffix">Its type letter in lower case (b, s, l, f, d), or <c>'\0'</c> for none.</param>
    private readonly record struct LegacyNumberShape(bool IsInteger, bool IsReal, bool HasPoint, char Suffix)
    {
        public static LegacyNumberShape Of(string token)
        {
            var position = token[0] is '-' or '+' ? 1 : 0;
            var wholeStart = position;
            position = Digits(token, position);
            var whole = position - wholeStart;
            var hasPoint = position < token.Length && token[position] == '.';
            var fraction = 0;
            if (hasPoint)
            {
                var fractionStart = ++position;
                position = Digits(token, position);
                fraction = position - fractionStart;
            }

            var hasExponent = false;
            if (position < token.Length && (token[position] | 0x20) == 'e')
            {
                var exponentStart = position + 1 < token.Length && token[position + 1] is '-' or '+' ? position + 2 : position + 1;
                var exponentEnd = Digits(token, exponentStart);
                if (exponentEnd > exponentStart)
                {
                    hasExponent = true;
                    position = exponentEnd;
                }
            }

            var suffix = position == token.Length - 1 ? (char)(token[position] | 0x20) : '\0';
            if (position < token.Length - (suffix == '\0' ? 0 : 1) || suffix is not ('\0' or 'b' or 's' or 'l' or 'f' or 'd'))
            {
                return default;
            }

            var isInteger = !hasPoint && !hasExponent && whole > 0 && (whole == 1 || token[wholeStart] != '0');
            var isReal = whole + fraction > 0;
            return new LegacyNumberShape(isInteger, isReal, hasPoint, suffix);
        }

        private static int Digits(string token, int position)
        {
            while (position < token.Length && char.IsAsciiDigit(token[position]))
            {
                position++;
            }

            return position;
        }
    }
}

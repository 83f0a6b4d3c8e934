using System.Buffers;
using System.Globalization;
using System.Text;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// The grammar of Minecraft 1.21.5 and later (its <c>SnbtGrammar</c>). Every token the grammar names (a bracket, a comma,
/// a sign, a run of digits, a suffix letter, the letter after a backslash) may be preceded by whitespace, so <c>- 1</c>,
/// <c>1 b</c> and <c>[ I ; 1 ]</c> read as the game reads them; inside quoted strings whitespace is text, and nowhere
/// inside an unquoted word. The grammar backtracks only inside a number (float before integer) and after <c>[</c>
/// (array before list); everywhere else the first token decides, so it is read here in one pass.
/// </summary>
public sealed partial class SnbtParser
{
    private static readonly SearchValues<char> DecimalDigits = SearchValues.Create("0123456789_");
    private static readonly SearchValues<char> HexDigits = SearchValues.Create("0123456789abcdefABCDEF_");
    private static readonly SearchValues<char> BinaryDigits = SearchValues.Create("01_");
    private static readonly SearchValues<char> CharacterNameChars =
        SearchValues.Create("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ");

    // Why the last number that did not read failed, at the furthest place reached: the game reports its furthest failure.
    private string? _numberMiss;
    private int _numberMissAt = -1;
    private bool _numberMissSaysWhy;

    private NbtTag ReadModernValue()
    {
        SkipWhitespace();
        if (AtEnd)
        {
            throw ErrorAt("Expected a value.", _position);
        }

        var c = Current;
        if (SnbtCharacters.CanStartNumber(c))
        {
            return ReadModernNumber();
        }

        switch (c)
        {
            case '"' or '\'':
                return new NbtString(ReadModernQuoted());
            case '{':
                {
                    Enter(_position);
                    _position++;
                    var compound = ReadCompoundMembers(static p => p.ReadModernName(), static p => p.ReadModernValue());
                    Exit();
                    return compound;
                }

            case '[':
                return ReadModernListOrArray();
            default:
                return ReadModernWord();
        }
    }

    private string ReadModernName() => !AtEnd && SnbtCharacters.IsQuote(Current) ? ReadModernQuoted() : ReadUnquotedRun();

    private NbtTag ReadModernListOrArray()
    {
        var open = _position;
        Enter(open);
        _position++;

        // An array when a prefix letter and ';' follow; else a list, whose first element may well be that letter ("[B]").
        var afterOpen = _position;
        var next = WhitespaceEnd(_position);
        NbtTag result;
        if (next < _text.Length && _text[next] is 'B' or 'I' or 'L' && TryConsumeAt(next + 1, ';'))
        {
            result = ReadModernArray(_text[next]);
        }
        else
        {
            _position = afterOpen;
            result = ReadModernList();
        }

        Exit();
        return result;
    }

    private bool TryConsumeAt(int position, char c)
    {
        var saved = _position;
        _position = position;
        if (TryConsume(c))
        {
            return true;
        }

        _position = saved;
        return false;
    }

    private NbtList ReadModernList()
    {
        var elements = new List<NbtTag>();
        var mixed = false;
        while (true)
        {
            SkipWhitespace();
            if (!AtEnd && Current == ']')
            {
                break;
            }

            try
            {
                var element = ReadModernValue();
                mixed |= elements.Count > 0 && element.Type != elements[0].Type;
                elements.Add(element);
            }
            catch (NbtFormatException exception) when (exception.PrependPathAndPropagate(elements.Count))
            {
                throw;
            }

            if (!TryConsume(','))
            {
                break;
            }
        }

        Expect(']', "',' or ']'");
        var list = mixed ? NbtList.WithMixedTypes() : new NbtList();
        foreach (var element in elements)
        {
            list.Add(element);
        }

        return list;
    }

    private NbtTag ReadModernArray(char kind)
    {
        // The grammar reads every element, then checks their types: a syntax error anywhere comes first.
        var literals = new List<SnbtInteger>();
        while (true)
        {
            SkipWhitespace();
            if (!AtEnd && Current == ']')
            {
                break;
            }

            ForgetMisses();
            if (!TryReadInteger(out var literal))
            {
                throw NumberError(string.Create(CultureInfo.InvariantCulture, $"Expected an integer or ']' in a [{kind};] array."));
            }

            literals.Add(literal);
            if (!TryConsume(','))
            {
                break;
            }
        }

        Expect(']', "',' or ']'");

        // An element without a type suffix has the array's type; with one, a type that widens to it.
        var values = new long[literals.Count];
        for (var i = 0; i < values.Length; i++)
        {
            var literal = literals[i];
            var type = literal.Type == '\0' ? char.ToLowerInvariant(kind) : literal.Type;
            var allowed = kind switch
            {
                'B' => type == 'b',
                'I' => type is 'i' or 'b' or 's',
                _ => true,
            };
            if (!allowed)
            {
                var error = ErrorAt(string.Create(CultureInfo.InvariantCulture, $"{(type == 'i' ? "An" : "A")} {SnbtInteger.TypeName(type)} cannot be an element of a [{kind};] array."), literal.Start);
                error.PrependPath(i);
                throw error;
            }

            values[i] = literal.Value(type, this);
        }

        return kind switch
        {
            'B' => new NbtByteArray(Array.ConvertAll(values, static v => (byte)v)),
            'I' => new NbtIntArray(Array.ConvertAll(values, static v => (int)v)),
            _ => new NbtLongArray(values),
        };
    }

    private NbtTag ReadModernNumber()
    {
        var start = _position;
        ForgetMisses();
        if (TryReadFloat(out var real))
        {
            return real;
        }

        _position = start;
        if (TryReadInteger(out var integer))
        {
            return integer.ToTag(this);
        }

        // A value that starts like a number is a number or nothing: an unquoted string may not start so.
        _position = start;
        throw NumberError("Expected a number: a value starting with a digit, a sign or '.' cannot be an unquoted string.");
    }

    // The furthest miss, when it is past where the number starts or says why it is no number (a leading zero); else the fallback.
    private NbtFormatException NumberError(string fallback)
    {
        var start = WhitespaceEnd(_position);
        return _numberMiss is { } reason && (_numberMissAt > start || (_numberMissAt == start && _numberMissSaysWhy))
            ? ErrorAt(reason, _numberMissAt)
            : ErrorAt(fallback, start);
    }

    private void ForgetMisses()
    {
        _numberMiss = null;
        _numberMissAt = -1;
        _numberMissSaysWhy = false;
    }

    private void Miss(int position, string reason, bool saysWhy = false)
    {
        if (position > _numberMissAt || (position == _numberMissAt && saysWhy && !_numberMissSaysWhy))
        {
            _numberMissAt = position;
            _numberMiss = reason;
            _numberMissSaysWhy = saysWhy;
        }
    }

    /// <summary>Reads a floating-point literal when one comes next; throws when it is one but rounds to infinity.</summary>
    private bool TryReadFloat(out NbtTag tag)
    {
        tag = null!;
        var start = WhitespaceEnd(_position);
        var negative = TryReadSign();
        var afterSign = _position;
        string? fraction = null;
        string? exponent = null;
        var exponentNegative = false;
        var suffix = '\0';
        if (TryReadDigits(DecimalDigits, "digits", out var whole) && TryConsume('.'))
        {
            // whole '.' [fraction] [exponent] [suffix]
            fraction = TryReadDigits(DecimalDigits, "digits", out var digits) ? digits : null;
            TryReadExponent(out exponent, out exponentNegative);
            TryReadFloatSuffix(out suffix);
        }
        else
        {
            _position = afterSign;
            whole = null;
            if (TryConsume('.'))
            {
                // '.' fraction [exponent] [suffix]
                if (!TryReadDigits(DecimalDigits, "digits after '.'", out fraction))
                {
                    return false;
                }

                TryReadExponent(out exponent, out exponentNegative);
                TryReadFloatSuffix(out suffix);
            }
            else
            {
                // whole exponent [suffix], or whole suffix
                if (!TryReadDigits(DecimalDigits, "digits", out whole))
                {
                    return false;
                }

                var hasExponent = TryReadExponent(out exponent, out exponentNegative);
                if (!TryReadFloatSuffix(out suffix) && !hasExponent)
                {
                    return false;
                }
            }
        }

        var text = new StringBuilder(negative ? "-" : string.Empty);
        AppendDigits(text, whole);
        if (fraction is not null)
        {
            AppendDigits(text.Append('.'), fraction);
        }

        if (exponent is not null)
        {
            AppendDigits(text.Append(exponentNegative ? "e-" : "e"), exponent);
        }

        const NumberStyles Styles = NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent;
        if (suffix == 'f')
        {
            var single = float.Parse(text.ToString(), Styles, CultureInfo.InvariantCulture);
            tag = float.IsFinite(single) ? new NbtFloat(single) : throw Infinite(start);
        }
        else
        {
            var number = double.Parse(text.ToString(), Styles, CultureInfo.InvariantCulture);
            tag = double.IsFinite(number) ? new NbtDouble(number) : throw Infinite(start);
        }

        return true;
    }

    private NbtFormatException Infinite(int start) =>
        ErrorAt(string.Create(CultureInfo.InvariantCulture, $"The number '{_text[start.._position]}' is out of its type's range: Minecraft refuses a literal that rounds to infinity."), start);

    private static void AppendDigits(StringBuilder text, string? digits)
    {
        foreach (var c in digits ?? string.Empty)
        {
            if (c != '_')
            {
                text.Append(c);
            }
        }
    }

    private bool TryReadExponent(out string? digits, out bool negative)
    {
        var saved = _position;
        digits = null;
        negative = false;
        if (!TryConsume('e') && !TryConsume('E'))
        {
            return false;
        }

        negative = TryReadSign();
        if (TryReadDigits(DecimalDigits, "the exponent's digits", out var run))
        {
            digits = run;
            return true;
        }

        _position = saved;
        negative = false;
        return false;
    }

    private bool TryReadFloatSuffix(out char suffix)
    {
        var next = WhitespaceEnd(_position);
        suffix = next < _text.Length ? char.ToLowerInvariant(_text[next]) : '\0';
        if (suffix is 'f' or 'd')
        {
            _position = next + 1;
            return true;
        }

        suffix = '\0';
        return false;
    }

    private bool TryReadInteger(out SnbtInteger literal)
    {
        literal = default;
        var start = WhitespaceEnd(_position);
        var restart = _position;
        var negative = TryReadSign();
        var afterSign = _position;
        int radix;
        string? digits;
        if (TryConsume('0'))
        {
            // After a leading 0 only a radix prefix, a suffix or the end of the number may come.
            var afterZero = _position;
            if (TryConsume('x') || TryConsume('X'))
            {
                radix = 16;
                if (!TryReadDigits(HexDigits, "hex digits after '0x'", out digits))
                {
                    _position = restart;
                    return false;
                }
            }
            else if ((TryConsume('b') || TryConsume('B')) && TryReadDigits(BinaryDigits, "binary digits", out digits))
            {
                radix = 2;
            }
            else
            {
                _position = afterZero;
                if (TryReadDigits(DecimalDigits, "digits", out _))
                {
                    Miss(start, "Leading zeros are not allowed: '0' may be followed only by 'x' (hex), 'b' (binary), a suffix or the end of the number.", saysWhy: true);
                    _position = restart;
                    return false;
                }

                _position = afterZero;
                radix = 10;
                digits = "0";
            }
        }
        else
        {
            _position = afterSign;
            radix = 10;
            if (!TryReadDigits(DecimalDigits, "digits", out digits))
            {
                _position = restart;
                return false;
            }
        }

        ReadIntegerSuffix(out var signed, out var type);
        literal = new SnbtInteger(start, _position, negative, radix, digits, signed, type);
        return true;
    }

    private void ReadIntegerSuffix(out bool? signed, out char type)
    {
        var saved = _position;
        foreach (var marker in "us")
        {
            if ((TryConsume(marker) || TryConsume(char.ToUpperInvariant(marker))) && TryReadIntegerType(out type))
            {
                signed = marker == 's';
                return;
            }

            _position = saved;
        }

        signed = null;
        TryReadIntegerType(out type);
    }

    private bool TryReadIntegerType(out char type)
    {
        var next = WhitespaceEnd(_position);
        type = next < _text.Length ? char.ToLowerInvariant(_text[next]) : '\0';
        if (type is 'b' or 's' or 'i' or 'l')
        {
            _position = next + 1;
            return true;
        }

        type = '\0';
        return false;
    }

    private bool TryReadSign()
    {
        if (TryConsume('-'))
        {
            return true;
        }

        TryConsume('+');
        return false;
    }

    /// <summary>Reads a run of digits (and <c>_</c> between them) after whitespace, leaving the position alone when there is none.</summary>
    private bool TryReadDigits(SearchValues<char> accepted, string what, out string digits)
    {
        digits = string.Empty;
        var start = WhitespaceEnd(_position);
        var length = _text.AsSpan(start).IndexOfAnyExcept(accepted);
        length = length < 0 ? _text.Length - start : length;
        if (length == 0)
        {
            Miss(start, $"Expected {what}.");
            return false;
        }

        if (_text[start] == '_' || _text[start + length - 1] == '_')
        {
            Miss(start, "An underscore may only stand between digits.", saysWhy: true);
            return false;
        }

        digits = _text.Substring(start, length);
        _position = start + length;
        return true;
    }

    private string ReadModernQuoted()
    {
        var start = _position;
        var quote = _text[_position++];

        // Most strings hold no escape: one search finds their end.
        var plain = _text.AsSpan(_position).IndexOfAny(quote, '\\');
        if (plain >= 0 && _text[_position + plain] == quote)
        {
            var value = _text.Substring(_position, plain);
            _position += plain + 1;
            return value;
        }

        var text = new StringBuilder();
        while (true)
        {
            if (AtEnd)
            {
                throw ErrorAt(string.Create(CultureInfo.InvariantCulture, $"Expected {quote} to close the string that starts at offset {Offset(start)}."), _position);
            }

            var c = _text[_position++];
            if (c == quote)
            {
                return text.ToString();
            }

            if (c == '\\')
            {
                ReadEscape(text);
            }
            else
            {
                text.Append(c);
            }
        }
    }

    private void ReadEscape(StringBuilder text)
    {
        // The letter after the backslash is a token of its own: whitespace may come before it.
        SkipWhitespace();
        var at = _position;
        if (AtEnd)
        {
            throw ErrorAt("Expected an escape after '\\'.", at);
        }

        var letter = _text[_position++];
        switch (letter)
        {
            case 'b':
                text.Append('\b');
                break;
            case 's':
                text.Append(' ');
                break;
            case 't':
                text.Append('\t');
                break;
            case 'n':
                text.Append('\n');
                break;
            case 'f':
                text.Append('\f');
                break;
            case 'r':
                text.Append('\r');
                break;
            case '\\' or '\'' or '"':
                text.Append(letter);
                break;
            case 'x':
                AppendCodePoint(text, ReadHexEscape(2, letter));
                break;
            case 'u':
                AppendCodePoint(text, ReadHexEscape(4, letter));
                break;
            case 'U':
                AppendCodePoint(text, ReadHexEscape(8, letter));
                break;
            case 'N':
                AppendCodePoint(text, ReadNamedEscape());
                break;
            default:
                throw ErrorAt($"Unknown escape '\\{letter}': expected one of b s t n f r \\ ' \" x u U N.", at);
        }
    }

    // A code point below U+10000 is one char, a lone surrogate included: Java strings hold those, and Java NBT stores them.
    private static void AppendCodePoint(StringBuilder text, int codePoint)
    {
        if (codePoint < 0x10000)
        {
            text.Append((char)codePoint);
        }
        else
        {
            text.Append(char.ConvertFromUtf32(codePoint));
        }
    }

    private int ReadHexEscape(int digits, char letter)
    {
        var at = _position;
        var run = _text.AsSpan(_position, Math.Min(digits, _text.Length - _position));
        var length = run.IndexOfAnyExcept(HexDigits);
        if ((length < 0 ? run.Length : length) < digits || run.Contains('_'))
        {
            throw ErrorAt(string.Create(CultureInfo.InvariantCulture, $"Expected {digits} hex digits after '\\{letter}'."), at);
        }

        var value = uint.Parse(run, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture);
        if (value > 0x10FFFF)
        {
            throw ErrorAt(string.Create(CultureInfo.InvariantCulture, $"U+{value:X8} is not a Unicode code point."), at);
        }

        _position += digits;
        return (int)value;
    }

    private int ReadNamedEscape()
    {
        if (!TryConsume('{'))
        {
            throw ErrorAt("Expected '{' after '\\N'.", WhitespaceEnd(_position));
        }

        var at = _position;
        var length = _text.AsSpan(_position).IndexOfAnyExcept(CharacterNameChars);
        length = length < 0 ? _text.Length - _position : length;
        if (length == 0)
        {
            throw ErrorAt("Expected a character name after '\\N{'.", at);
        }

        var name = _text.Substring(_position, length);
        _position += length;
        if (!TryConsume('}'))
        {
            throw ErrorAt("Expected '}' after the character name.", WhitespaceEnd(_position));
        }

        return UnicodeNames.TryGetCodePoint(name, out var codePoint)
            ? codePoint
            : throw ErrorAt($"No character is named '{name.Trim()}'.", at);
    }

    private NbtTag ReadModernWord()
    {
        var start = _position;
        var word = ReadUnquotedRun();
        if (word.Length == 0)
        {
            throw ErrorAt("Expected a value.", start);
        }

        if (TryConsume('('))
        {
            return ReadFunction(word, start);
        }

        // true and false in any case; any other word is a string.
        return word.Equals("true", StringComparison.OrdinalIgnoreCase) ? new NbtByte(1)
            : word.Equals("false", StringComparison.OrdinalIgnoreCase) ? new NbtByte(0)
            : new NbtString(word);
    }

    private NbtTag ReadFunction(string name, int start)
    {
        Enter(start);
        var arguments = new List<NbtTag>();
        while (true)
        {
            SkipWhitespace();
            if (!AtEnd && Current == ')')
            {
                break;
            }

            arguments.Add(ReadModernValue());
            if (!TryConsume(','))
            {
                break;
            }
        }

        Expect(')', "',' or ')'");
        Exit();
        return (name, arguments.Count) switch
        {
            ("bool", 1) => arguments[0] switch
            {
                // Any number: non-zero is true, as Minecraft compares its double value with 0.
                NbtByte value => Bool(value.Value != 0),
                NbtShort value => Bool(value.Value != 0),
                NbtInt value => Bool(value.Value != 0),
                NbtLong value => Bool(value.Value != 0),
                NbtFloat value => Bool(value.Value != 0),
                NbtDouble value => Bool(value.Value != 0),
                _ => throw ErrorAt("bool() takes a number or a boolean.", start),
            },
            ("uuid", 1) => arguments[0] is NbtString text && JavaUuid.TryParse(text.Value, out var ints)
                ? new NbtIntArray(ints)
                : throw ErrorAt("uuid() takes a UUID string such as \"f81d4fae-7dec-11d0-a765-00a0c91e6bf6\".", start),
            _ => throw ErrorAt(string.Create(CultureInfo.InvariantCulture, $"No function {name}() of {arguments.Count} argument(s): SNBT has bool(value) and uuid(text)."), start),
        };

        static NbtByte Bool(bool value) => new(value ? (sbyte)1 : (sbyte)0);
    }
}

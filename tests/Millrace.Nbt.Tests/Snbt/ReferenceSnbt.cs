using System.Globalization;
using System.Numerics;
using System.Text;
using System.Text.RegularExpressions;
using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Snbt;

/// <summary>
/// A second, independent reading of Minecraft's two SNBT grammars, written the way the game writes them rather than the
/// way <see cref="SnbtParser"/> does: 1.21.5's as the parsing-expression grammar of its <c>SnbtGrammar</c> (ordered
/// choice with cuts, optional terms, repetition with a trailing separator, every terminal skipping whitespace first),
/// interpreted rule by rule with backtracking; 1.21.4's as its <c>TagParser</c> over Brigadier's string reader, typing
/// tokens with the game's own regular expressions. Slow and small on purpose; it says only whether an input reads and to
/// what tree, so the tests and the fuzz target compare the parser's verdicts with it. Java's UUID and character-name
/// lookups are the library's (<see cref="JavaUuid"/>, <see cref="UnicodeNames"/>): they are data, not grammar.
/// </summary>
internal static class ReferenceSnbt
{
    /// <summary>Reads <paramref name="text"/> as the chosen game does; <see langword="null"/> when it refuses it.</summary>
    public static NbtTag? Parse(string text, SnbtSyntax syntax)
    {
        try
        {
            return syntax == SnbtSyntax.Legacy ? new Legacy(text).ParseAll() : new Modern(text).ParseAll();
        }
        catch (RefusedException)
        {
            return null;
        }
    }

    private static bool IsWhitespace(char c) =>
        c is ' ' or '\t' or '\n' or '\u000B' or '\f' or '\r' or '\u001C' or '\u001D' or '\u001E' or '\u001F'
            or '\u1680' or '\u2000' or '\u2001' or '\u2002' or '\u2003' or '\u2004' or '\u2005' or '\u2006'
            or '\u2008' or '\u2009' or '\u200A' or '\u2028' or '\u2029' or '\u205F' or '\u3000';

    private static bool IsUnquoted(char c) => c is (>= '0' and <= '9') or (>= 'A' and <= 'Z') or (>= 'a' and <= 'z') or '_' or '-' or '.' or '+';

    private sealed class RefusedException : Exception
    {
    }

    // Millrace's nesting limit (NbtReaderOptions.MaxDepth's default, as Minecraft's accounter): the grammars have none.
    private const int MaxDepth = 512;

    /// <summary>1.21.4: TagParser, recursive descent over Brigadier's reader; a refusal throws.</summary>
    private sealed class Legacy(string s)
    {
        private int _depth;

        private const RegexOptions Options = RegexOptions.IgnoreCase | RegexOptions.CultureInvariant;
        private static readonly Regex DoubleNoSuffix = new(@"^[-+]?(?:[0-9]+[.]|[0-9]*[.][0-9]+)(?:e[-+]?[0-9]+)?\z", Options);
        private static readonly Regex Double = new(@"^[-+]?(?:[0-9]+[.]?|[0-9]*[.][0-9]+)(?:e[-+]?[0-9]+)?d\z", Options);
        private static readonly Regex Float = new(@"^[-+]?(?:[0-9]+[.]?|[0-9]*[.][0-9]+)(?:e[-+]?[0-9]+)?f\z", Options);
        private static readonly Regex Byte = new(@"^[-+]?(?:0|[1-9][0-9]*)b\z", Options);
        private static readonly Regex Long = new(@"^[-+]?(?:0|[1-9][0-9]*)l\z", Options);
        private static readonly Regex Short = new(@"^[-+]?(?:0|[1-9][0-9]*)s\z", Options);
        private static readonly Regex Int = new(@"^[-+]?(?:0|[1-9][0-9]*)\z", RegexOptions.CultureInvariant);
        private int _p;

        public NbtTag ParseAll()
        {
            var value = ReadValue();
            SkipWs();
            return _p == s.Length ? value : throw new RefusedException();
        }

        private bool CanRead(int n = 1) => _p + n <= s.Length;

        private char Peek(int offset = 0) => s[_p + offset];

        private void SkipWs()
        {
            while (CanRead() && IsWhitespace(Peek()))
            {
                _p++;
            }
        }

        private void Expect(char c)
        {
            SkipWs();
            if (!CanRead() || Peek() != c)
            {
                throw new RefusedException();
            }

            _p++;
        }

        private NbtTag ReadValue()
        {
            SkipWs();
            if (!CanRead())
            {
                throw new RefusedException();
            }

            return Peek() switch
            {
                '{' => ReadStruct(),
                '[' => CanRead(3) && Peek(1) is not ('"' or '\'') && Peek(2) == ';' ? ReadArray() : ReadList(),
                _ => ReadTyped(),
            };
        }

        private string ReadUnquoted()
        {
            var start = _p;
            while (CanRead() && IsUnquoted(Peek()))
            {
                _p++;
            }

            return s[start.._p];
        }

        private string ReadQuoted()
        {
            var quote = s[_p++];
            var result = new StringBuilder();
            var escaped = false;
            while (CanRead())
            {
                var c = s[_p++];
                if (escaped)
                {
                    if (c != quote && c != '\\')
                    {
                        throw new RefusedException();
                    }

                    result.Append(c);
                    escaped = false;
                }
                else if (c == '\\')
                {
                    escaped = true;
                }
                else if (c == quote)
                {
                    return result.ToString();
                }
                else
                {
                    result.Append(c);
                }
            }

            throw new RefusedException();
        }

        private NbtTag ReadTyped()
        {
            SkipWs();
            if (Peek() is '"' or '\'')
            {
                return new NbtString(ReadQuoted());
            }

            var token = ReadUnquoted();
            return token.Length == 0 ? throw new RefusedException() : Type(token);
        }

        private static NbtTag Type(string t)
        {
            var body = t.Length > 0 ? t[..^1] : t;
            var culture = CultureInfo.InvariantCulture;
            const NumberStyles Real = NumberStyles.Float;
            if (Float.IsMatch(t))
            {
                return new NbtFloat(float.Parse(body, Real, culture));
            }

            // Java's parse error (a value out of the type's range) makes the token a string.
            if (Byte.IsMatch(t))
            {
                return sbyte.TryParse(body, NumberStyles.AllowLeadingSign, culture, out var b) ? new NbtByte(b) : new NbtString(t);
            }

            if (Long.IsMatch(t))
            {
                return long.TryParse(body, NumberStyles.AllowLeadingSign, culture, out var l) ? new NbtLong(l) : new NbtString(t);
            }

            if (Short.IsMatch(t))
            {
                return short.TryParse(body, NumberStyles.AllowLeadingSign, culture, out var sh) ? new NbtShort(sh) : new NbtString(t);
            }

            if (Int.IsMatch(t))
            {
                return int.TryParse(t, NumberStyles.AllowLeadingSign, culture, out var i) ? new NbtInt(i) : new NbtString(t);
            }

            if (Double.IsMatch(t))
            {
                return new NbtDouble(double.Parse(body, Real, culture));
            }

            if (DoubleNoSuffix.IsMatch(t))
            {
                return new NbtDouble(double.Parse(t, Real, culture));
            }

            return string.Equals(t, "true", StringComparison.OrdinalIgnoreCase) ? new NbtByte(1)
                : string.Equals(t, "false", StringComparison.OrdinalIgnoreCase) ? new NbtByte(0)
                : new NbtString(t);
        }

        private bool HasSeparator()
        {
            SkipWs();
            if (CanRead() && Peek() == ',')
            {
                _p++;
                SkipWs();
                return true;
            }

            return false;
        }

        private NbtCompound ReadStruct()
        {
            Enter();
            Expect('{');
            var compound = new NbtCompound();
            SkipWs();
            while (CanRead() && Peek() != '}')
            {
                SkipWs();
                if (!CanRead())
                {
                    throw new RefusedException();
                }

                var key = Peek() is '"' or '\'' ? ReadQuoted() : ReadUnquoted();
                if (key.Length == 0)
                {
                    throw new RefusedException();
                }

                Expect(':');
                compound[key] = ReadValue();
                if (!HasSeparator())
                {
                    break;
                }

                if (!CanRead())
                {
                    throw new RefusedException();
                }
            }

            Expect('}');
            _depth--;
            return compound;
        }

        private void Enter()
        {
            if (++_depth > MaxDepth)
            {
                throw new RefusedException();
            }
        }

        private NbtList ReadList()
        {
            Enter();
            Expect('[');
            SkipWs();
            if (!CanRead())
            {
                throw new RefusedException();
            }

            var list = new NbtList();
            while (Peek() != ']')
            {
                var value = ReadValue();
                if (list.Count > 0 && value.Type != list.ElementType)
                {
                    throw new RefusedException();
                }

                list.Add(value);
                if (!HasSeparator())
                {
                    break;
                }

                if (!CanRead())
                {
                    throw new RefusedException();
                }
            }

            Expect(']');
            _depth--;
            return list;
        }

        private NbtTag ReadArray()
        {
            Expect('[');
            var kind = s[_p++];
            _p++;
            SkipWs();
            if (!CanRead())
            {
                throw new RefusedException();
            }

            var element = kind switch
            {
                'B' => NbtTagType.Byte,
                'L' => NbtTagType.Long,
                'I' => NbtTagType.Int,
                _ => throw new RefusedException(),
            };
            var values = new List<long>();
            while (Peek() != ']')
            {
                var value = ReadValue();
                if (value.Type != element)
                {
                    throw new RefusedException();
                }

                values.Add(value switch { NbtByte b => b.Value, NbtInt i => i.Value, _ => ((NbtLong)value).Value });
                if (!HasSeparator())
                {
                    break;
                }

                if (!CanRead())
                {
                    throw new RefusedException();
                }
            }

            Expect(']');
            return kind switch
            {
                'B' => new NbtByteArray([.. values.Select(v => (byte)v)]),
                'I' => new NbtIntArray([.. values.Select(v => (int)v)]),
                _ => new NbtLongArray([.. values]),
            };
        }
    }

    /// <summary>1.21.5+: SnbtGrammar as a parsing-expression grammar. A rule returns its value, or null when it fails.</summary>
    private sealed class Modern(string s)
    {
        private delegate bool Term(Control control);

        private int _p;
        private int _depth;

        public NbtTag ParseAll()
        {
            var value = Literal() ?? throw new RefusedException();
            SkipWs();
            return _p == s.Length ? value : throw new RefusedException();
        }

        private void SkipWs()
        {
            while (_p < s.Length && IsWhitespace(s[_p]))
            {
                _p++;
            }
        }

        // Terms: a terminal skips whitespace then reads one character; a sequence restores on failure; an alternative
        // tries its terms in order until one holds or a cut inside a failed one forbids the rest.
        private Term Ch(params char[] accepted) => _ =>
        {
            SkipWs();
            if (_p < s.Length && Array.IndexOf(accepted, s[_p]) >= 0)
            {
                _p++;
                return true;
            }

            return false;
        };

        private Term Seq(params Term[] terms) => control =>
        {
            var mark = _p;
            foreach (var term in terms)
            {
                if (!term(control))
                {
                    _p = mark;
                    return false;
                }
            }

            return true;
        };

        private Term Alt(params Term[] terms) => _ =>
        {
            var mark = _p;
            var inner = new Control();
            foreach (var term in terms)
            {
                if (term(inner))
                {
                    return true;
                }

                _p = mark;
                if (inner.Cut)
                {
                    break;
                }
            }

            return false;
        };

        private Term Opt(Term term) => control =>
        {
            var mark = _p;
            if (!term(control))
            {
                _p = mark;
            }

            return true;
        };

        private Term Look(Term term) => control =>
        {
            var mark = _p;
            var held = term(control);
            _p = mark;
            return held;
        };

        private static Term Cut => control =>
        {
            control.Cut = true;
            return true;
        };

        private static Term Fail => _ => false;

        private static Term Mark(Action set) => _ =>
        {
            set();
            return true;
        };

        private Term Rule<T>(Func<T?> rule, Action<T> store)
            where T : class => _ =>
        {
            var mark = _p;
            var value = rule();
            if (value is null)
            {
                _p = mark;
                return false;
            }

            store(value);
            return true;
        };

        private Term Repeated<T>(Func<T?> element, List<T> into)
            where T : class => control =>
        {
            // repeatedWithTrailingSeparator(element, ','): element (',' element)* ','?
            var first = true;
            while (true)
            {
                var mark = _p;
                if (!first && !Ch(',')(control))
                {
                    _p = mark;
                    break;
                }

                var beforeElement = _p;
                var value = element();
                if (value is null)
                {
                    _p = beforeElement;
                    break;
                }

                into.Add(value);
                first = false;
            }

            return true;
        };

        private string? Numeral(string accepted)
        {
            SkipWs();
            var start = _p;
            var end = start;
            while (end < s.Length && accepted.Contains(s[end], StringComparison.Ordinal))
            {
                end++;
            }

            if (end == start || s[start] == '_' || s[end - 1] == '_')
            {
                return null;
            }

            _p = end;
            return s[start..end];
        }

        private string? Decimal() => Numeral("0123456789_");

        private Box<bool>? Sign()
        {
            Box<bool>? result = null;
            var term = Alt(Seq(Ch('+'), Mark(() => result = new(false))), Seq(Ch('-'), Mark(() => result = new(true))));
            return term(new Control()) ? result : null;
        }

        private IntegerLiteral? IntegerLiteralRule()
        {
            Box<bool>? sign = null;
            string? digits = null;
            var radix = 10;
            (bool? Signed, char Type) suffix = (null, '\0');
            var term = Seq(
                Opt(Rule(Sign, v => sign = v)),
                Alt(
                    Seq(
                        Ch('0'),
                        Cut,
                        Alt(
                            Seq(Ch('x', 'X'), Cut, Rule(() => Numeral("0123456789abcdefABCDEF_"), v => (digits, radix) = (v, 16))),
                            Seq(Ch('b', 'B'), Rule(() => Numeral("01_"), v => (digits, radix) = (v, 2))),
                            Seq(Rule(Decimal, _ => { }), Cut, Fail),
                            Mark(() => (digits, radix) = ("0", 10)))),
                    Rule(Decimal, v => (digits, radix) = (v, 10))),
                Opt(Rule(IntegerSuffix, v => suffix = v.Value)));
            return term(new Control()) ? new IntegerLiteral(sign?.Value ?? false, radix, digits!, suffix.Signed, suffix.Type) : null;
        }

        private Box<(bool? Signed, char Type)>? IntegerSuffix()
        {
            Box<(bool?, char)>? result = null;
            Term Types(bool? signed) => Alt(
                Seq(Ch('b', 'B'), Mark(() => result = new((signed, 'b')))),
                Seq(Ch('s', 'S'), Mark(() => result = new((signed, 's')))),
                Seq(Ch('i', 'I'), Mark(() => result = new((signed, 'i')))),
                Seq(Ch('l', 'L'), Mark(() => result = new((signed, 'l')))));
            var term = Alt(Seq(Ch('u', 'U'), Types(false)), Seq(Ch('s', 'S'), Types(true)), Types(null));
            return term(new Control()) ? result : null;
        }

        private NbtTag? FloatLiteral()
        {
            Box<bool>? sign = null;
            string? whole = null, fraction = null, exponent = null;
            var exponentNegative = false;
            var suffix = '\0';
            Term Exponent() => Seq(Ch('e', 'E'), Opt(Rule(Sign, v => exponentNegative = v.Value)), Rule(Decimal, v => exponent = v));
            Term Suffix() => Alt(Seq(Ch('f', 'F'), Mark(() => suffix = 'f')), Seq(Ch('d', 'D'), Mark(() => suffix = 'd')));
            var term = Seq(
                Opt(Rule(Sign, v => sign = v)),
                Alt(
                    Seq(Rule(Decimal, v => whole = v), Ch('.'), Cut, Opt(Rule(Decimal, v => fraction = v)), Opt(Exponent()), Opt(Suffix())),
                    Seq(Ch('.'), Cut, Rule(Decimal, v => fraction = v), Opt(Exponent()), Opt(Suffix())),
                    Seq(Rule(Decimal, v => whole = v), Exponent(), Cut, Opt(Suffix())),
                    Seq(Rule(Decimal, v => whole = v), Opt(Exponent()), Suffix())));

            // A failed alternative may have left values behind: the game clears them; here only the last success counts.
            whole = fraction = exponent = null;
            if (!term(new Control()))
            {
                return null;
            }

            var text = (sign?.Value == true ? "-" : string.Empty) + Clean(whole) + (fraction is null ? string.Empty : "." + Clean(fraction))
                + (exponent is null ? string.Empty : (exponentNegative ? "e-" : "e") + Clean(exponent));
            if (suffix == 'f')
            {
                var single = float.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
                return float.IsFinite(single) ? new NbtFloat(single) : null;
            }

            var number = double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
            return double.IsFinite(number) ? new NbtDouble(number) : null;
        }

        private static string Clean(string? digits) => (digits ?? string.Empty).Replace("_", string.Empty, StringComparison.Ordinal);

        private string? Hex(int count)
        {
            var start = _p;
            while (_p < s.Length && _p - start < count && Uri.IsHexDigit(s[_p]))
            {
                _p++;
            }

            if (_p - start < count)
            {
                _p = start;
                return null;
            }

            return s[start.._p];
        }

        private string? Escape()
        {
            string? result = null;
            Term Simple(char c, string value) => Seq(Ch(c), Mark(() => result = value));
            Term Code(char c, int count) => Seq(Ch(c), Rule(() => Hex(count), hex =>
            {
                var value = long.Parse(hex, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture);
                result = value > 0x10FFFF ? null : value < 0x10000 ? ((char)value).ToString() : char.ConvertFromUtf32((int)value);
            }));
            var term = Alt(
                Simple('b', "\b"), Simple('s', " "), Simple('t', "\t"), Simple('n', "\n"), Simple('f', "\f"), Simple('r', "\r"),
                Simple('\\', "\\"), Simple('\'', "'"), Simple('"', "\""), Code('x', 2), Code('u', 4), Code('U', 8),
                Seq(Ch('N'), Ch('{'), Rule(CharacterName, name => result = UnicodeNames.TryGetCodePoint(name, out var cp)
                    ? cp < 0x10000 ? ((char)cp).ToString() : char.ConvertFromUtf32(cp)
                    : null), Ch('}')));

            // A code point out of range or a name no character has: the rule matched, its value fails it.
            return term(new Control()) ? result : null;
        }

        private string? CharacterName()
        {
            var match = Regex.Match(s[_p..], "^[-a-zA-Z0-9 ]+");
            if (!match.Success)
            {
                return null;
            }

            _p += match.Length;
            return match.Value;
        }

        private string? Quoted()
        {
            var chunks = new StringBuilder();
            Term Contents(char quote) => control =>
            {
                // string_chunks: repeated(plain run | '\\' escape | the other quote)
                while (true)
                {
                    var start = _p;
                    while (_p < s.Length && s[_p] is not ('"' or '\'' or '\\'))
                    {
                        _p++;
                    }

                    if (_p > start)
                    {
                        chunks.Append(s, start, _p - start);
                        continue;
                    }

                    string? escape = null;
                    if (Seq(Ch('\\'), Rule(Escape, e => escape = e))(control))
                    {
                        chunks.Append(escape);
                        continue;
                    }

                    if (_p < s.Length && s[_p] == (quote == '"' ? '\'' : '"'))
                    {
                        chunks.Append(s[_p++]);
                        continue;
                    }

                    return true;
                }
            };
            var term = Alt(Seq(Ch('"'), Cut, Contents('"'), Ch('"')), Seq(Ch('\''), Contents('\''), Ch('\'')));
            return term(new Control()) ? chunks.ToString() : null;
        }

        private string? Unquoted()
        {
            SkipWs();
            var start = _p;
            while (_p < s.Length && IsUnquoted(s[_p]))
            {
                _p++;
            }

            return _p > start ? s[start.._p] : null;
        }

        private NbtTag? UnquotedOrBuiltin()
        {
            string? word = null;
            List<NbtTag>? arguments = null;
            var list = new List<NbtTag>();
            var term = Seq(Rule(Unquoted, v => word = v), Opt(Seq(Ch('('), Rule(() => Nested(() => Repeated(Literal, list)(new Control()) ? new NbtList() : null), _ => arguments = list), Ch(')'))));
            if (!term(new Control()))
            {
                return null;
            }

            if (SnbtCharacters.CanStartNumber(word![0]))
            {
                return null;
            }

            if (arguments is not null)
            {
                return (word, arguments.Count) switch
                {
                    ("bool", 1) => arguments[0] switch
                    {
                        NbtByte v => Bool(v.Value != 0),
                        NbtShort v => Bool(v.Value != 0),
                        NbtInt v => Bool(v.Value != 0),
                        NbtLong v => Bool(v.Value != 0),
                        NbtFloat v => Bool(v.Value != 0),
                        NbtDouble v => Bool(v.Value != 0),
                        _ => null,
                    },
                    ("uuid", 1) => arguments[0] is NbtString text && JavaUuid.TryParse(text.Value, out var ints) ? new NbtIntArray(ints) : null,
                    _ => null,
                };
            }

            return word.Equals("true", StringComparison.OrdinalIgnoreCase) ? new NbtByte(1)
                : word.Equals("false", StringComparison.OrdinalIgnoreCase) ? new NbtByte(0)
                : new NbtString(word);

            static NbtByte Bool(bool value) => new(value ? (sbyte)1 : (sbyte)0);
        }

        private KeyValuePair<string, NbtTag>? Entry()
        {
            string? key = null;
            NbtTag? value = null;
            var term = Seq(Alt(Rule(Quoted, v => key = v), Rule(Unquoted, v => key = v)), Ch(':'), Rule(Literal, v => value = v));
            return term(new Control()) && key!.Length > 0 ? new(key, value!) : null;
        }

        private NbtTag? Nested(Func<NbtTag?> rule)
        {
            if (++_depth > MaxDepth)
            {
                throw new RefusedException();
            }

            var value = rule();
            _depth--;
            return value;
        }

        private NbtTag? Map()
        {
            var entries = new List<Box<KeyValuePair<string, NbtTag>>>();
            var term = Seq(Ch('{'), Repeated(() => Entry() is { } e ? new Box<KeyValuePair<string, NbtTag>>(e) : null, entries), Ch('}'));
            if (!term(new Control()))
            {
                return null;
            }

            var compound = new NbtCompound();
            foreach (var entry in entries)
            {
                compound[entry.Value.Key] = entry.Value.Value;
            }

            return compound;
        }

        private NbtTag? List()
        {
            var prefix = '\0';
            var integers = new List<IntegerLiteral>();
            var elements = new List<NbtTag>();
            var term = Seq(
                Ch('['),
                Alt(
                    Seq(Alt(Seq(Ch('B'), Mark(() => prefix = 'B')), Seq(Ch('L'), Mark(() => prefix = 'L')), Seq(Ch('I'), Mark(() => prefix = 'I'))), Ch(';'), Repeated(IntegerLiteralRule, integers)),
                    Seq(Mark(() => prefix = '\0'), Repeated(Literal, elements))),
                Ch(']'));
            if (!term(new Control()))
            {
                return null;
            }

            if (prefix == '\0')
            {
                var mixed = elements.Exists(e => e.Type != elements[0].Type);
                var list = mixed ? NbtList.WithMixedTypes() : new NbtList();
                elements.ForEach(list.Add);
                return list;
            }

            var values = new List<long>();
            foreach (var integer in integers)
            {
                var type = integer.Type == '\0' ? char.ToLowerInvariant(prefix) : integer.Type;
                var allowed = prefix switch { 'B' => "b", 'I' => "ibs", _ => "lbsi" };
                if (!allowed.Contains(type, StringComparison.Ordinal) || integer.Value(type) is not { } value)
                {
                    return null;
                }

                values.Add(value);
            }

            return prefix switch
            {
                'B' => new NbtByteArray([.. values.Select(v => (byte)v)]),
                'I' => new NbtIntArray([.. values.Select(v => (int)v)]),
                _ => new NbtLongArray([.. values]),
            };
        }

        private NbtTag? Literal()
        {
            NbtTag? value = null;
            var term = Alt(
                Seq(Look(Ch('+', '-', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9')), Alt(
                    Rule(FloatLiteral, v => value = v),
                    Rule(() => IntegerLiteralRule() is { } i && i.Value(i.Type == '\0' ? 'i' : i.Type) is { } v ? Tag(i.Type, v) : null, v => value = v))),
                Seq(Look(Ch('"', '\'')), Cut, Rule(() => Quoted() is { } q ? new NbtString(q) : null, v => value = v)),
                Seq(Look(Ch('{')), Cut, Rule(() => Nested(Map), v => value = v)),
                Seq(Look(Ch('[')), Cut, Rule(() => Nested(List), v => value = v)),
                Rule(UnquotedOrBuiltin, v => value = v));
            return term(new Control()) ? value : null;
        }

        private static NbtTag Tag(char type, long value) => type switch
        {
            'b' => new NbtByte((sbyte)value),
            's' => new NbtShort((short)value),
            'l' => new NbtLong(value),
            _ => new NbtInt((int)value),
        };

        private sealed class Control
        {
            public bool Cut { get; set; }
        }

        private sealed record Box<T>(T Value);

        private sealed record IntegerLiteral(bool Negative, int Radix, string Digits, bool? Signed, char Type)
        {
            // Java's Byte/Short/Integer/Long.parseX for signed, their unsigned parsers for unsigned.
            public long? Value(char type)
            {
                var bits = type switch { 'b' => 8, 's' => 16, 'l' => 64, _ => 32 };
                var signed = Signed ?? Radix == 10;
                if (!signed && Negative)
                {
                    return null;
                }

                BigInteger magnitude = 0;
                foreach (var c in Digits.Replace("_", string.Empty, StringComparison.Ordinal))
                {
                    magnitude = (magnitude * Radix) + Convert.ToInt32(c.ToString(), 16);
                }

                var value = Negative ? -magnitude : magnitude;
                var (min, max) = signed
                    ? (-(BigInteger.One << (bits - 1)), (BigInteger.One << (bits - 1)) - 1)
                    : (BigInteger.Zero, (BigInteger.One << bits) - 1);
                if (value < min || value > max)
                {
                    return null;
                }

                var truncated = (ulong)(value & ulong.MaxValue);
                return bits == 64 ? (long)truncated : (long)(truncated << (64 - bits)) >> (64 - bits);
            }
        }
    }
}

using System.Buffers;
using System.Globalization;
using System.Text;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// Parses SNBT in both syntaxes: the legacy one (suffixes b s l f d in either case, <c>[B;…]</c> <c>[I;…]</c>
/// <c>[L;…]</c>, quoted and unquoted strings, <c>true</c>/<c>false</c>) and Minecraft 1.21.5's additions (hex
/// <c>0x</c> and binary <c>0b</c> literals, <c>_</c> separators, signed/unsigned suffixes such as <c>255ub</c>,
/// escapes <c>\x</c> <c>\u</c> <c>\U</c>, <c>bool(…)</c> and <c>uuid(…)</c>, lists of mixed types).
/// Errors are <see cref="NbtFormatException"/>s whose offset counts characters of a string, or bytes of UTF-8 input.
/// </summary>
public sealed class SnbtParser
{
    private readonly string _text;
    private readonly int _maxDepth;
    private readonly bool _offsetsInBytes;

    // Bytes before the text when offsets count bytes: a byte order mark the text was read without.
    private readonly int _byteBase;
    private int _position;
    private int _depth;

    private SnbtParser(string text, int maxDepth, bool offsetsInBytes, int byteBase)
    {
        _text = text;
        _maxDepth = maxDepth;
        _offsetsInBytes = offsetsInBytes;
        _byteBase = byteBase;
    }

    /// <summary>Parses one SNBT value; only whitespace may follow it.</summary>
    /// <param name="text">The SNBT text.</param>
    /// <param name="options">The nesting limit (<see cref="NbtReaderOptions.MaxDepth"/>; function calls such as <c>bool(…)</c> count as nesting); <see cref="NbtReaderOptions.Default"/> when <see langword="null"/>.</param>
    /// <returns>The tag.</returns>
    /// <exception cref="NbtFormatException">The text is not valid SNBT.</exception>
    public static NbtTag Parse(string text, NbtReaderOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(text);
        return Parse(text, options, offsetsInBytes: false, byteBase: 0);
    }

    /// <summary>Parses one SNBT value from UTF-8 bytes (a file's); only whitespace may follow it.</summary>
    /// <param name="utf8">The SNBT text as UTF-8, after a byte order mark or not: bytes that are not UTF-8 are refused, not replaced.</param>
    /// <param name="options">The nesting limit, as for <see cref="Parse(string, NbtReaderOptions?)"/>.</param>
    /// <returns>The tag.</returns>
    /// <exception cref="NbtFormatException">The bytes are not UTF-8, or not valid SNBT; the offset counts bytes.</exception>
    public static NbtTag ParseUtf8(ReadOnlySpan<byte> utf8, NbtReaderOptions? options = null)
    {
        if (Utf8Text.IndexOfInvalid(utf8) is >= 0 and var invalid)
        {
            throw new NbtFormatException(NbtErrorCodes.BadEncoding, "The SNBT is not valid UTF-8 here.", invalid);
        }

        // Editors save UTF-8 with a byte order mark: it says how the text is encoded and is not part of it.
        var mark = utf8.StartsWith("\uFEFF"u8) ? 3 : 0;
        return Parse(Encoding.UTF8.GetString(utf8[mark..]), options, offsetsInBytes: true, byteBase: mark);
    }

    private static NbtTag Parse(string text, NbtReaderOptions? options, bool offsetsInBytes, int byteBase)
    {
        var parser = new SnbtParser(text, (options ?? NbtReaderOptions.Default).MaxDepth, offsetsInBytes, byteBase);
        var tag = parser.ReadValue();
        parser.SkipWhitespace();
        if (parser._position < text.Length)
        {
            throw parser.Error("Unexpected text after the value.");
        }

        return tag;
    }

    private NbtTag ReadValue()
    {
        SkipWhitespace();
        if (_position >= _text.Length)
        {
            throw Error("Expected a value.");
        }

        return _text[_position] switch
        {
            '{' => ReadCompound(),
            '[' => ReadListOrArray(),
            '"' or '\'' => new NbtString(ReadQuoted()),
            _ => ReadUnquotedValue(),
        };
    }

    private NbtCompound ReadCompound()
    {
        Enter();
        _position++;
        var compound = new NbtCompound();
        SkipWhitespace();
        if (TryConsume('}'))
        {
            _depth--;
            return compound;
        }

        while (true)
        {
            SkipWhitespace();
            var name = Peek() is '"' or '\'' ? ReadQuoted() : ReadUnquotedToken();
            if (name.Length == 0 && Peek() is not ':')
            {
                throw Error("Expected a name.");
            }

            Expect(':');
            try
            {
                compound[name] = ReadValue();
            }
            catch (NbtFormatException exception) when (exception.PrependPathAndPropagate(name))
            {
                throw;
            }

            if (!NextElement('}'))
            {
                break;
            }
        }

        _depth--;
        return compound;
    }

    private NbtTag ReadListOrArray()
    {
        Enter();
        _position++;
        if (_position + 1 < _text.Length && _text[_position + 1] == ';' && _text[_position] is 'B' or 'I' or 'L')
        {
            var kind = _text[_position];
            _position += 2;
            var array = ReadArray(kind);
            _depth--;
            return array;
        }

        var elements = new List<NbtTag>();
        SkipWhitespace();
        if (!TryConsume(']'))
        {
            do
            {
                try
                {
                    elements.Add(ReadValue());
                }
                catch (NbtFormatException exception) when (exception.PrependPathAndPropagate(elements.Count))
                {
                    throw;
                }
            }
            while (NextElement(']'));
        }

        _depth--;
        var mixed = elements.Exists(e => e.Type != elements[0].Type);
        var list = mixed ? NbtList.WithMixedTypes() : new NbtList();
        foreach (var element in elements)
        {
            list.Add(element);
        }

        return list;
    }

    private NbtTag ReadArray(char kind)
    {
        var values = new List<long>();
        SkipWhitespace();
        if (!TryConsume(']'))
        {
            do
            {
                SkipWhitespace();
                var start = _position;
                var element = ReadUnquotedValue();
                values.Add(element switch
                {
                    NbtByte b when kind == 'B' => b.Value,
                    NbtByte b when kind != 'B' => b.Value,
                    NbtShort s when kind != 'B' => s.Value,
                    NbtInt i when kind != 'B' => i.Value,
                    NbtLong l when kind == 'L' => l.Value,
                    _ => throw new NbtFormatException(NbtErrorCodes.Syntax, $"A {element.Type} cannot be an element of a [{kind};] array.", Offset(start)),
                });
            }
            while (NextElement(']'));
        }

        return kind switch
        {
            'B' => new NbtByteArray(values.Select(v => (byte)(sbyte)v).ToArray()),
            'I' => new NbtIntArray(values.Select(v => (int)v).ToArray()),
            _ => new NbtLongArray([.. values]),
        };
    }

    private NbtTag ReadUnquotedValue()
    {
        var start = _position;
        var token = ReadUnquotedToken();
        SkipWhitespace();
        if (Peek() == '(' && token is "bool" or "uuid")
        {
            return ReadFunction(token, start);
        }

        if (token.Length == 0)
        {
            throw Error("Expected a value.");
        }

        if (token.Equals("true", StringComparison.OrdinalIgnoreCase) || token.Equals("false", StringComparison.OrdinalIgnoreCase))
        {
            return new NbtByte(token.Length == 4 ? (sbyte)1 : (sbyte)0);
        }

        try
        {
            return SnbtNumber.TryParse(token, start, out var number) ? number : new NbtString(token);
        }
        catch (NbtFormatException exception) when (_offsetsInBytes)
        {
            // Out of range: the offset is counted in bytes only now, so tokens that parse cost no count.
            throw new NbtFormatException(exception.Code, exception.Reason, Offset(start));
        }
    }

    private NbtTag ReadFunction(string name, int start)
    {
        _position++;
        Enter();
        var argument = ReadValue();
        SkipWhitespace();
        Expect(')');
        _depth--;
        if (name == "bool")
        {
            return argument switch
            {
                NbtValueTag<sbyte> b => new NbtByte(b.Value != 0 ? (sbyte)1 : (sbyte)0),
                NbtValueTag<short> s => new NbtByte(s.Value != 0 ? (sbyte)1 : (sbyte)0),
                NbtValueTag<int> i => new NbtByte(i.Value != 0 ? (sbyte)1 : (sbyte)0),
                NbtValueTag<long> l => new NbtByte(l.Value != 0 ? (sbyte)1 : (sbyte)0),
                _ => throw new NbtFormatException(NbtErrorCodes.Syntax, "bool() takes a number or a boolean.", Offset(start)),
            };
        }

        if (argument is not NbtString text || !Guid.TryParse(text.Value, out var uuid))
        {
            throw new NbtFormatException(NbtErrorCodes.Syntax, "uuid() takes a UUID such as \"f81d4fae-7dec-11d0-a765-00a0c91e6bf6\".", Offset(start));
        }

        // Minecraft stores a UUID as four ints, most significant first.
        Span<byte> bytes = stackalloc byte[16];
        uuid.TryWriteBytes(bytes, bigEndian: true, out _);
        var ints = new int[4];
        for (var i = 0; i < 4; i++)
        {
            ints[i] = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes[(i * 4)..]);
        }

        return new NbtIntArray(ints);
    }

    private string ReadUnquotedToken()
    {
        var start = _position;
        var length = _text.AsSpan(_position).IndexOfAnyExcept(SnbtSyntax.UnquotedChars);
        _position = length < 0 ? _text.Length : _position + length;
        return _text[start.._position];
    }

    private string ReadQuoted()
    {
        var quote = _text[_position++];
        var value = new StringBuilder();
        while (true)
        {
            if (_position >= _text.Length)
            {
                throw Error("Unterminated string.");
            }

            var c = _text[_position++];
            if (c == quote)
            {
                return value.ToString();
            }

            if (c != '\\')
            {
                value.Append(c);
                continue;
            }

            if (_position >= _text.Length)
            {
                throw Error("Unterminated escape.");
            }

            var escape = _text[_position++];
            switch (escape)
            {
                case '\\' or '"' or '\'':
                    value.Append(escape);
                    break;
                case 'n':
                    value.Append('\n');
                    break;
                case 't':
                    value.Append('\t');
                    break;
                case 'r':
                    value.Append('\r');
                    break;
                case 'b':
                    value.Append('\b');
                    break;
                case 'f':
                    value.Append('\f');
                    break;
                case 's':
                    value.Append(' ');
                    break;
                case 'x':
                    value.Append(ReadCodePoint(2));
                    break;
                case 'u':
                    value.Append(ReadCodePoint(4));
                    break;
                case 'U':
                    value.Append(ReadCodePoint(8));
                    break;
                default:
                    _position--;
                    throw Error($"Unknown escape '\\{escape}'.");
            }
        }
    }

    private string ReadCodePoint(int digits)
    {
        if (_position + digits > _text.Length
            || !int.TryParse(_text.AsSpan(_position, digits), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var code)
            || !Rune.IsValid(code))
        {
            throw Error($"Expected {digits} hex digits of a Unicode scalar value.");
        }

        _position += digits;
        return new Rune(code).ToString();
    }

    private bool NextElement(char close)
    {
        SkipWhitespace();
        if (TryConsume(','))
        {
            SkipWhitespace();
            return !TryConsume(close);
        }

        Expect(close);
        return false;
    }

    private void Enter()
    {
        if (++_depth > _maxDepth)
        {
            throw Error(string.Create(CultureInfo.InvariantCulture, $"Nesting deeper than the limit of {_maxDepth}."));
        }

        // A raised limit must never become a crash: when the thread's stack runs short first, that is reported.
        if (!StackRoom.Enough(_depth - 1))
        {
            throw Error(string.Create(CultureInfo.InvariantCulture, $"Nesting {_depth} levels deep is more than this thread's stack can parse; lower the depth limit."));
        }
    }

    private char? Peek() => _position < _text.Length ? _text[_position] : null;

    private bool TryConsume(char c)
    {
        if (Peek() == c)
        {
            _position++;
            return true;
        }

        return false;
    }

    private void Expect(char c)
    {
        SkipWhitespace();
        if (!TryConsume(c))
        {
            throw Error($"Expected '{c}'.");
        }
    }

    private void SkipWhitespace()
    {
        while (_position < _text.Length && char.IsWhiteSpace(_text[_position]))
        {
            _position++;
        }
    }

    private NbtFormatException Error(string reason) => new(NbtErrorCodes.Syntax, reason, Offset(_position));

    // Counted when an error needs it, not on the way: a parse that succeeds never counts.
    private int Offset(int position) => _offsetsInBytes ? _byteBase + Encoding.UTF8.GetByteCount(_text.AsSpan(0, position)) : position;
}

using System.Globalization;
using System.Text;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// Parses SNBT exactly as Minecraft reads it, in the syntax <see cref="NbtReaderOptions.SnbtSyntax"/> names:
/// <see cref="SnbtSyntax.Modern"/> (1.21.5 and later, the default) or <see cref="SnbtSyntax.Legacy"/> (1.21.4 and
/// earlier). What the chosen game reads is read to the same tree; what it refuses is refused, never read another way.
/// Errors are <see cref="NbtFormatException"/>s (code <see cref="NbtErrorCodes.Syntax"/>) saying what was expected,
/// whose offset counts characters of a string, or bytes of UTF-8 input, and whose path names the member.
/// </summary>
public sealed partial class SnbtParser
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
    /// <param name="options">
    /// The syntax (<see cref="NbtReaderOptions.SnbtSyntax"/>) and the nesting limit (<see cref="NbtReaderOptions.MaxDepth"/>;
    /// function calls such as <c>bool(…)</c> count as nesting); <see cref="NbtReaderOptions.Default"/> when <see langword="null"/>.
    /// </param>
    /// <returns>The tag.</returns>
    /// <exception cref="NbtFormatException">The text is not SNBT the chosen game reads.</exception>
    public static NbtTag Parse(string text, NbtReaderOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(text);
        return Parse(text, options, offsetsInBytes: false, byteBase: 0);
    }

    /// <summary>Parses one SNBT value from UTF-8 bytes (a file's); only whitespace may follow it.</summary>
    /// <param name="utf8">The SNBT text as UTF-8, after a byte order mark or not: bytes that are not UTF-8 are refused, not replaced.</param>
    /// <param name="options">The syntax and nesting limit, as for <see cref="Parse(string, NbtReaderOptions?)"/>.</param>
    /// <returns>The tag.</returns>
    /// <exception cref="NbtFormatException">The bytes are not UTF-8, or not SNBT the chosen game reads; the offset counts bytes.</exception>
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
        options ??= NbtReaderOptions.Default;
        options.Validate();
        var parser = new SnbtParser(text, options.MaxDepth, offsetsInBytes, byteBase);
        var tag = options.SnbtSyntax == SnbtSyntax.Legacy ? parser.ReadLegacyValue() : parser.ReadModernValue();

        // Both games read one value, then allow only whitespace.
        parser.SkipWhitespace();
        if (parser._position < text.Length)
        {
            throw parser.ErrorAt("Expected the end of the input after the value.", parser._position);
        }

        return tag;
    }

    private bool AtEnd => _position >= _text.Length;

    private char Current => _text[_position];

    /// <summary>Reads a run of the characters unquoted names and strings allow, maybe empty.</summary>
    private string ReadUnquotedRun()
    {
        var start = _position;
        var length = _text.AsSpan(_position).IndexOfAnyExcept(SnbtCharacters.Unquoted);
        _position = length < 0 ? _text.Length : _position + length;
        return _text[start.._position];
    }

    private void SkipWhitespace() => _position = WhitespaceEnd(_position);

    private int WhitespaceEnd(int position)
    {
        while (position < _text.Length && SnbtCharacters.IsWhitespace(_text[position]))
        {
            position++;
        }

        return position;
    }

    /// <summary>Skips whitespace, then consumes <paramref name="c"/> when it comes next.</summary>
    private bool TryConsume(char c)
    {
        var next = WhitespaceEnd(_position);
        if (next < _text.Length && _text[next] == c)
        {
            _position = next + 1;
            return true;
        }

        return false;
    }

    /// <summary>Skips whitespace, then consumes <paramref name="c"/> or refuses the input there.</summary>
    private void Expect(char c, string what)
    {
        if (!TryConsume(c))
        {
            SkipWhitespace();
            throw ErrorAt($"Expected {what}.", _position);
        }
    }

    private void Enter(int position)
    {
        if (++_depth > _maxDepth)
        {
            throw new NbtFormatException(NbtErrorCodes.Depth, string.Create(CultureInfo.InvariantCulture, $"Nesting deeper than the limit of {_maxDepth}."), Offset(position));
        }

        // A raised limit must never become a crash: when the thread's stack runs short first, that is reported.
        if (!StackRoom.Enough(_depth - 1))
        {
            throw new NbtFormatException(NbtErrorCodes.Depth, string.Create(CultureInfo.InvariantCulture, $"Nesting {_depth} levels deep is more than this thread's stack can parse; lower the depth limit."), Offset(position));
        }
    }

    private void Exit() => _depth--;

    /// <summary>Reads the members of a compound whose <c>{</c> is consumed, the two grammars' rules given as callbacks.</summary>
    private NbtCompound ReadCompoundMembers(Func<SnbtParser, string> readName, Func<SnbtParser, NbtTag> readValue)
    {
        var compound = new NbtCompound();
        while (true)
        {
            SkipWhitespace();
            if (!AtEnd && Current == '}')
            {
                break;
            }

            var nameStart = _position;
            var name = readName(this);
            if (name.Length == 0)
            {
                // Both games refuse an empty name, quoted or not.
                throw ErrorAt(nameStart == _position ? "Expected a name or '}'." : "A name may not be empty.", nameStart);
            }

            Expect(':', "':' after the name");
            try
            {
                // A repeated name keeps its first place and takes the last value, as the game's map does.
                compound[name] = readValue(this);
            }
            catch (NbtFormatException exception) when (exception.PrependPathAndPropagate(name))
            {
                throw;
            }

            if (!TryConsume(','))
            {
                break;
            }
        }

        Expect('}', "',' or '}'");
        return compound;
    }

    /// <summary>Makes the syntax error at <paramref name="position"/>.</summary>
    internal NbtFormatException ErrorAt(string reason, int position) => new(NbtErrorCodes.Syntax, reason, Offset(position));

    /// <summary>Gets the text between two positions, for messages.</summary>
    internal string TextOf(int start, int end) => _text[start..end];

    // Counted when an error needs it, not on the way: a parse that succeeds never counts.
    private int Offset(int position) => _offsetsInBytes ? _byteBase + Encoding.UTF8.GetByteCount(_text.AsSpan(0, position)) : position;
}

using System.Globalization;
using System.Text;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// A filter over chunks, in a small language modelled on MCA Selector's chunk filter:
/// <c>InhabitedTime &lt; 5m and not contains minecraft:chest</c>, <c>x in -64..63 and z in -64..63</c>,
/// <c>DataVersion &lt; 3465 or Status != full</c>.
/// </summary>
/// <remarks>
/// <para>The grammar; keywords and field names are case-insensitive, <c>and</c> binds tighter than <c>or</c>:</para>
/// <code>
/// query      = or
/// or         = and { "or" and }
/// and        = unary { "and" unary }
/// unary      = "not" unary | "(" or ")" | condition
/// condition  = "contains" name { "," name }
///            | field ( "&lt;" | "&lt;=" | "&gt;" | "&gt;=" | "=" | "==" | "!=" ) value
///            | field "in" integer ".." integer
/// </code>
/// <para>The fields:</para>
/// <list type="bullet">
/// <item><c>x</c>, <c>z</c> (or <c>xPos</c>, <c>zPos</c>): the chunk's position, in chunks; <c>in A..B</c> includes both ends.</item>
/// <item><c>DataVersion</c>: the chunk's; a chunk saved before 1.9 has none and counts as 0.</item>
/// <item><c>InhabitedTime</c>, <c>LastUpdate</c>: in ticks, or as a duration of 20 ticks a second: <c>90s</c>, <c>5m</c>,
/// <c>1h30m</c>, <c>2d</c>, <c>100t</c>.</item>
/// <item><c>Timestamp</c>: when the region file says the chunk was saved, in seconds since 1970, or as a UTC date
/// <c>2024-05-01</c> or time <c>2024-05-01T12:00:00</c> (a final <c>Z</c> allowed).</item>
/// <item><c>Status</c>: how far the chunk was generated, compared with <c>=</c> or <c>!=</c>; a status without a
/// namespace is the game's, so <c>full</c> and <c>minecraft:full</c> are one status (both were written, before and
/// from 1.18). A chunk saved before 1.13 has no status and matches only <c>!=</c>.</item>
/// <item><c>contains</c>: at least one block of each name listed (properties aside; a name without a namespace is the
/// game's; <c>legacy:ID</c> for blocks saved before 1.13). A palette entry no block uses does not count.</item>
/// </list>
/// <para>A query that does not parse is refused as <see cref="NbtErrorCodes.Query"/> at the byte of the query (UTF-8)
/// where it stops making sense. Parentheses and <c>not</c> nest at most <see cref="MaxDepth"/> deep.</para>
/// </remarks>
public sealed class ChunkQuery
{
    /// <summary>How deep parentheses and <c>not</c> may nest.</summary>
    public const int MaxDepth = 64;

    private const int TicksPerSecond = 20;
    private const string GameNamespace = "minecraft:";

    private readonly string _text;
    private readonly Node _root;

    private ChunkQuery(string text, Node root)
    {
        _text = text;
        _root = root;
        RequiresChunkData = root.RequiresChunkData;
    }

    /// <summary>Gets a value indicating whether the query reads the chunk itself; when not, only its position and
    /// timestamp from the region file's header decide (<see cref="Matches(int, int, DateTimeOffset)"/>), and the chunk
    /// need not be inflated.</summary>
    public bool RequiresChunkData { get; }

    /// <summary>Parses a query.</summary>
    /// <param name="text">The query.</param>
    /// <returns>The query.</returns>
    /// <exception cref="NbtFormatException">The query does not parse (<see cref="NbtErrorCodes.Query"/>), located at a
    /// byte of its UTF-8 text.</exception>
    public static ChunkQuery Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var parser = new Parser(text);
        return new ChunkQuery(text, parser.ParseQuery());
    }

    /// <summary>Decides whether a chunk matches.</summary>
    /// <param name="chunk">The chunk.</param>
    /// <param name="timestamp">When the region file says it was saved (<see cref="Region.RegionChunk.Timestamp"/>).</param>
    /// <returns><see langword="true"/> when it matches.</returns>
    /// <exception cref="MillraceException">A section the query reads is not one the game writes (<see cref="NbtErrorCodes.World"/>).</exception>
    public bool Matches(Chunk chunk, DateTimeOffset timestamp)
    {
        ArgumentNullException.ThrowIfNull(chunk);
        return _root.Matches(new Subject(chunk.X, chunk.Z, timestamp, chunk));
    }

    /// <summary>Decides whether a chunk matches from its position and timestamp alone, for a query that does not
    /// <see cref="RequiresChunkData"/>.</summary>
    /// <param name="x">The chunk's x, in chunks.</param>
    /// <param name="z">The chunk's z, in chunks.</param>
    /// <param name="timestamp">When the region file says it was saved.</param>
    /// <returns><see langword="true"/> when it matches.</returns>
    /// <exception cref="InvalidOperationException">The query reads the chunk itself.</exception>
    public bool Matches(int x, int z, DateTimeOffset timestamp)
    {
        if (RequiresChunkData)
        {
            throw new InvalidOperationException($"The query '{_text}' reads the chunk itself: match the chunk.");
        }

        return _root.Matches(new Subject(x, z, timestamp, null));
    }

    /// <summary>
    /// Puts every chunk of a region through the query: from the header alone when the query does not
    /// <see cref="RequiresChunkData"/>, otherwise each chunk read in turn. Either way a chunk is where its slot puts it,
    /// whatever its <c>xPos</c> and <c>zPos</c> say, as the game reads it (<see cref="Chunk.Read(Tags.NbtCompound, int, int)"/>).
    /// A chunk that cannot be read neither matches nor stops the rest: it is listed with its error.
    /// </summary>
    /// <param name="region">The region.</param>
    /// <param name="regionX">The region's x, in regions of 32 chunks (from its name, <see cref="RegionFileEntry"/>).</param>
    /// <param name="regionZ">The region's z.</param>
    /// <param name="options">The limits chunks are read under.</param>
    /// <returns>The chunks that match and those that could not be read.</returns>
    public RegionSelection Select(Region.RegionFile region, int regionX, int regionZ, NbtReaderOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(region);
        var matches = new List<Region.RegionChunk>();
        var errors = new List<Region.RegionChunkError>();
        var chunks = 0;
        foreach (var entry in region.Chunks)
        {
            chunks++;
            try
            {
                if (RequiresChunkData
                    ? region.ReadChunk(entry.X, entry.Z, options)?.Root is Tags.NbtCompound root && Matches(Chunk.Read(root, (regionX * 32) + entry.X, (regionZ * 32) + entry.Z), entry.Timestamp)
                    : Matches((regionX * 32) + entry.X, (regionZ * 32) + entry.Z, entry.Timestamp))
                {
                    matches.Add(entry);
                }
            }
            catch (MillraceException exception)
            {
                errors.Add(new Region.RegionChunkError(entry.X, entry.Z, exception.Error));
            }
        }

        return new RegionSelection(matches, chunks, errors);
    }

    /// <summary>Gets the query as it was written.</summary>
    /// <returns>The text.</returns>
    public override string ToString() => _text;

    private readonly record struct Subject(int X, int Z, DateTimeOffset Timestamp, Chunk? Chunk)
    {
        public Chunk Data => Chunk ?? throw new InvalidOperationException("The query reads the chunk itself.");
    }

    private abstract class Node
    {
        public abstract bool RequiresChunkData { get; }

        public abstract bool Matches(in Subject subject);
    }

    private sealed class Either(Node left, Node right) : Node
    {
        public override bool RequiresChunkData => left.RequiresChunkData || right.RequiresChunkData;

        public override bool Matches(in Subject subject) => left.Matches(subject) || right.Matches(subject);
    }

    private sealed class Both(Node left, Node right) : Node
    {
        public override bool RequiresChunkData => left.RequiresChunkData || right.RequiresChunkData;

        public override bool Matches(in Subject subject) => left.Matches(subject) && right.Matches(subject);
    }

    private sealed class Negation(Node inner) : Node
    {
        public override bool RequiresChunkData => inner.RequiresChunkData;

        public override bool Matches(in Subject subject) => !inner.Matches(subject);
    }

    private sealed class Contains(string[] names) : Node
    {
        public override bool RequiresChunkData => true;

        public override bool Matches(in Subject subject)
        {
            var chunk = subject.Data;
            return names.All(chunk.ContainsBlock);
        }
    }

    private sealed class Comparison(Field target, Operator op, long value) : Node
    {
        public override bool RequiresChunkData => target is not (Field.X or Field.Z or Field.Timestamp);

        public override bool Matches(in Subject subject)
        {
            var actual = target switch
            {
                Field.X => subject.X,
                Field.Z => subject.Z,
                Field.Timestamp => subject.Timestamp.ToUnixTimeSeconds(),
                Field.DataVersion => subject.Data.DataVersion ?? 0,
                Field.InhabitedTime => subject.Data.InhabitedTime,
                _ => subject.Data.LastUpdate,
            };
            return op switch
            {
                Operator.Less => actual < value,
                Operator.LessOrEqual => actual <= value,
                Operator.Greater => actual > value,
                Operator.GreaterOrEqual => actual >= value,
                Operator.Equal => actual == value,
                _ => actual != value,
            };
        }
    }

    private sealed class StatusIs(string status, bool equal) : Node
    {
        public override bool RequiresChunkData => true;

        public override bool Matches(in Subject subject) =>
            subject.Data.Status is { } actual && Qualified(actual) == status ? equal : !equal;
    }

    private enum Field
    {
        X,
        Z,
        Timestamp,
        DataVersion,
        InhabitedTime,
        LastUpdate,
        Status,
    }

    private enum Operator
    {
        Less,
        LessOrEqual,
        Greater,
        GreaterOrEqual,
        Equal,
        NotEqual,
    }

    private static string Qualified(string name) => name.Contains(':', StringComparison.Ordinal) ? name : GameNamespace + name;

    private enum TokenKind
    {
        Word,
        Quoted,
        Open,
        Close,
        Comma,
        Operator,
        End,
    }

    private readonly record struct Token(TokenKind Kind, string Text, int Start);

    /// <summary>A recursive-descent parser over the query's tokens, one token of look-ahead.</summary>
    private sealed class Parser
    {
        private readonly string _text;
        private int _position;
        private int _depth;
        private Token _current;

        public Parser(string text)
        {
            _text = text;
            _current = Next();
        }

        public Node ParseQuery()
        {
            if (_current.Kind == TokenKind.End)
            {
                throw Error("The query is empty.", _current);
            }

            var node = ParseOr();
            return _current.Kind == TokenKind.End ? node : throw Error($"Expected 'and', 'or' or the end of the query, not {Describe(_current)}.", _current);
        }

        private Node ParseOr()
        {
            var node = ParseAnd();
            while (IsKeyword(_current, "or"))
            {
                Advance();
                node = new Either(node, ParseAnd());
            }

            return node;
        }

        private Node ParseAnd()
        {
            var node = ParseUnary();
            while (IsKeyword(_current, "and"))
            {
                Advance();
                node = new Both(node, ParseUnary());
            }

            return node;
        }

        private Node ParseUnary()
        {
            var start = _current;
            var nests = IsKeyword(start, "not") || start.Kind == TokenKind.Open;
            if (!nests)
            {
                return ParseCondition();
            }

            if (++_depth > MaxDepth)
            {
                throw Error(string.Create(CultureInfo.InvariantCulture, $"Parentheses and 'not' nest more than {MaxDepth} deep."), start);
            }

            Advance();
            Node node;
            if (start.Kind == TokenKind.Open)
            {
                node = ParseOr();
                if (_current.Kind != TokenKind.Close)
                {
                    throw Error($"Expected ')' to close the '(' at byte {ByteOffset(start.Start)}, not {Describe(_current)}.", _current);
                }

                Advance();
            }
            else
            {
                node = new Negation(ParseUnary());
            }

            _depth--;
            return node;
        }

        private Node ParseCondition()
        {
            var start = _current;
            if (IsKeyword(start, "contains"))
            {
                Advance();
                var names = new List<string> { ParseName() };
                while (_current.Kind == TokenKind.Comma)
                {
                    Advance();
                    names.Add(ParseName());
                }

                return new Contains([.. names]);
            }

            if (start.Kind != TokenKind.Word)
            {
                throw Error($"Expected a condition (a field such as InhabitedTime, 'contains', 'not' or '('), not {Describe(start)}.", start);
            }

            var field = FieldOf(start);
            Advance();
            if (IsKeyword(_current, "in"))
            {
                if (field is not (Field.X or Field.Z))
                {
                    throw Error("Only x and z take a range ('in A..B').", _current);
                }

                Advance();
                var range = _current;
                var parts = range.Kind == TokenKind.Word ? range.Text.Split("..") : [];
                if (parts.Length != 2 || !TryInteger(parts[0], out var low) || !TryInteger(parts[1], out var high) || low > high)
                {
                    throw Error($"Expected a range of chunk coordinates as A..B, A at most B, not {Describe(range)}.", range);
                }

                Advance();
                return new Both(new Comparison(field, Operator.GreaterOrEqual, low), new Comparison(field, Operator.LessOrEqual, high));
            }

            if (_current.Kind != TokenKind.Operator)
            {
                throw Error($"Expected a comparison (<, <=, >, >=, =, !=){(field is Field.X or Field.Z ? " or 'in'" : string.Empty)} after '{start.Text}', not {Describe(_current)}.", _current);
            }

            var operatorToken = _current;
            var op = operatorToken.Text switch
            {
                "<" => Operator.Less,
                "<=" => Operator.LessOrEqual,
                ">" => Operator.Greater,
                ">=" => Operator.GreaterOrEqual,
                "=" or "==" => Operator.Equal,
                "!=" => Operator.NotEqual,
                _ => throw Error($"'{operatorToken.Text}' is not a comparison; use <, <=, >, >=, = or !=.", operatorToken),
            };
            Advance();
            var value = _current;
            if (value.Kind is not (TokenKind.Word or TokenKind.Quoted))
            {
                throw Error($"Expected a value after '{operatorToken.Text}', not {Describe(value)}.", value);
            }

            Advance();
            if (field == Field.Status)
            {
                return op is Operator.Equal or Operator.NotEqual
                    ? new StatusIs(Qualified(value.Text), op == Operator.Equal)
                    : throw Error("Status is compared with = or != only.", operatorToken);
            }

            return new Comparison(field, op, field switch
            {
                Field.InhabitedTime or Field.LastUpdate => Duration(value),
                Field.Timestamp => Timestamp(value),
                _ => TryInteger(value.Text, out var number) && value.Kind == TokenKind.Word
                    ? number
                    : throw Error($"Expected a whole number from {int.MinValue} to {int.MaxValue} for {start.Text}, not {Describe(value)}.", value),
            });
        }

        private string ParseName()
        {
            var token = _current;
            if (token.Kind is not (TokenKind.Word or TokenKind.Quoted) || token.Text.Length == 0 || IsKeyword(token, "and") || IsKeyword(token, "or"))
            {
                throw Error($"Expected a block name such as minecraft:chest, not {Describe(token)}.", token);
            }

            Advance();
            return Qualified(token.Text);
        }

        private Field FieldOf(Token token) => token.Text.ToUpperInvariant() switch
        {
            "X" or "XPOS" => Field.X,
            "Z" or "ZPOS" => Field.Z,
            "TIMESTAMP" => Field.Timestamp,
            "DATAVERSION" => Field.DataVersion,
            "INHABITEDTIME" => Field.InhabitedTime,
            "LASTUPDATE" => Field.LastUpdate,
            "STATUS" => Field.Status,
            _ => throw Error($"'{token.Text}' is not a field; the fields are x, z, DataVersion, InhabitedTime, LastUpdate, Timestamp and Status.", token),
        };

        // Ticks, or a duration of whole numbers with units t, s, m, h and d (20 ticks a second).
        private long Duration(Token token)
        {
            var text = token.Text;
            if (token.Kind == TokenKind.Word && long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var ticks))
            {
                return ticks;
            }

            long total = 0;
            var i = 0;
            try
            {
                while (i < text.Length && token.Kind == TokenKind.Word)
                {
                    var digits = i;
                    while (i < text.Length && char.IsAsciiDigit(text[i]))
                    {
                        i++;
                    }

                    if (i == digits || i == text.Length)
                    {
                        break;
                    }

                    var count = long.Parse(text.AsSpan(digits, i - digits), NumberStyles.None, CultureInfo.InvariantCulture);
                    long perUnit = char.ToLowerInvariant(text[i++]) switch
                    {
                        't' => 1,
                        's' => TicksPerSecond,
                        'm' => TicksPerSecond * 60,
                        'h' => TicksPerSecond * 3600,
                        'd' => TicksPerSecond * 86400,
                        _ => 0,
                    };
                    if (perUnit == 0)
                    {
                        break;
                    }

                    total = checked(total + checked(count * perUnit));
                    if (i == text.Length)
                    {
                        return total;
                    }
                }
            }
            catch (OverflowException)
            {
                throw Error($"The duration '{text}' is longer than a long of ticks holds.", token);
            }

            throw Error($"Expected ticks or a duration such as 90s, 5m, 1h30m or 2d (units t, s, m, h, d), not {Describe(token)}.", token);
        }

        // Seconds since 1970, or a UTC date or time.
        private long Timestamp(Token token)
        {
            if (token.Kind == TokenKind.Word && long.TryParse(token.Text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var seconds))
            {
                return seconds;
            }

            return DateTime.TryParseExact(token.Text, ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss'Z'", "yyyy-MM-dd HH:mm:ss"], CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var time)
                ? new DateTimeOffset(time, TimeSpan.Zero).ToUnixTimeSeconds()
                : throw Error($"Expected seconds since 1970 or a UTC date as 2024-05-01 or 2024-05-01T12:00:00, not {Describe(token)}.", token);
        }

        private static bool TryInteger(string text, out long value)
        {
            var parsed = int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var number);
            value = number;
            return parsed;
        }

        private static bool IsKeyword(Token token, string keyword) =>
            token.Kind == TokenKind.Word && string.Equals(token.Text, keyword, StringComparison.OrdinalIgnoreCase);

        private static string Describe(Token token) => token.Kind switch
        {
            TokenKind.End => "the end of the query",
            TokenKind.Quoted => $"\"{token.Text}\"",
            _ => $"'{token.Text}'",
        };

        private void Advance() => _current = Next();

        private Token Next()
        {
            while (_position < _text.Length && char.IsWhiteSpace(_text[_position]))
            {
                _position++;
            }

            var start = _position;
            if (_position == _text.Length)
            {
                return new Token(TokenKind.End, string.Empty, start);
            }

            var c = _text[_position];
            switch (c)
            {
                case '(':
                    _position++;
                    return new Token(TokenKind.Open, "(", start);
                case ')':
                    _position++;
                    return new Token(TokenKind.Close, ")", start);
                case ',':
                    _position++;
                    return new Token(TokenKind.Comma, ",", start);
                case '<' or '>' or '=' or '!':
                    _position++;
                    if (_position < _text.Length && _text[_position] == '=')
                    {
                        _position++;
                    }

                    return new Token(TokenKind.Operator, _text[start.._position], start);
                case '"':
                    return Quoted(start);
            }

            while (_position < _text.Length && !char.IsWhiteSpace(_text[_position]) && "(),<>=!\"".IndexOf(_text[_position], StringComparison.Ordinal) < 0)
            {
                _position++;
            }

            return new Token(TokenKind.Word, _text[start.._position], start);
        }

        // A double-quoted string; \" and \\ are its only escapes.
        private Token Quoted(int start)
        {
            var value = new StringBuilder();
            _position++;
            while (_position < _text.Length)
            {
                var c = _text[_position++];
                if (c == '"')
                {
                    return new Token(TokenKind.Quoted, value.ToString(), start);
                }

                if (c == '\\')
                {
                    if (_position == _text.Length || _text[_position] is not ('"' or '\\'))
                    {
                        throw Error("In a quoted string, a backslash escapes only \" and \\.", new Token(TokenKind.Quoted, string.Empty, _position - 1));
                    }

                    c = _text[_position++];
                }

                value.Append(c);
            }

            throw Error("A quoted string is not closed.", new Token(TokenKind.Quoted, string.Empty, start));
        }

        private int ByteOffset(int charIndex) => Encoding.UTF8.GetByteCount(_text.AsSpan(0, charIndex));

        private NbtFormatException Error(string reason, Token at) => new(NbtErrorCodes.Query, reason, ByteOffset(at.Start));
    }
}

using System.Globalization;
using System.Text;
using Millrace.Compact.Wire;

namespace Millrace.Compact.Schema;

/// <summary>A type as a schema file states it: a record (fields) or a union (cases), before any check that the types fit together.</summary>
/// <remarks>This file is compiled into the library and into the source generator (netstandard2.0), so the schema file has one
/// reader and one writer: <c>CompactSchemaSet</c> reads it, the generator checks a type against a committed file and
/// writes each type's schema into its assembly.</remarks>
internal sealed class SchemaFileType
{
    public SchemaFileType(string name, int id)
    {
        Name = name;
        Id = id;
    }

    public string Name { get; }

    public int Id { get; }

    /// <summary>Gets where the type is in its file (<c>$.types[0]</c>), for errors; empty for a type not read from one.</summary>
    public string Path { get; set; } = string.Empty;

    /// <summary>Gets the type's line and column in its file as an error ends with them (<c> (line 3, column 5)</c>); empty
    /// for a type not read from one.</summary>
    public string Position { get; set; } = string.Empty;

    public List<SchemaFileField> Fields { get; } = [];

    public List<int> Reserved { get; } = [];

    /// <summary>Gets the cases of a union, by tag; <see langword="null"/> for a record.</summary>
    public List<SchemaFileCase>? Cases { get; set; }

    public bool RetainsUnknownFields { get; set; }
}

/// <summary>A record's field as a schema file states it.</summary>
internal sealed record SchemaFileField(string Name, int Index, string Type, IntegerEncoding Encoding, bool OmitDefault, bool Required)
{
    public string Path { get; init; } = string.Empty;

    public string Position { get; init; } = string.Empty;
}

/// <summary>A union's case: the tag on the wire and the record type it holds.</summary>
internal sealed record SchemaFileCase(int Tag, string Type);

/// <summary>
/// Reads and writes schema files (docs/compact-format.md, Schema files). Every member the file may have is known: any other,
/// a member given twice or a value of the wrong kind is refused with its path and line, so a file never means less than it
/// says. The JSON is read here rather than with a platform reader because the generator, which reads the same files, runs
/// on netstandard2.0 without one.
/// </summary>
internal static class SchemaFile
{
    /// <summary>The key of the <c>AssemblyMetadata</c> attribute the generator writes each type's schema file under.</summary>
    public const string AssemblyMetadataKey = "Millrace.Compact.Schema";

    private const int MaxNesting = 64;

    private static readonly string[] RootMembers = ["types"];
    private static readonly string[] TypeMembers = ["name", "id", "fields", "reserved", "unknownFields", "cases"];
    private static readonly string[] FieldMembers = ["name", "index", "type", "encoding", "omitDefault", "required"];
    private static readonly string[] CaseMembers = ["tag", "type"];

    /// <summary>Reads a schema file's types.</summary>
    /// <exception cref="FormatException">The text is not JSON, or not a schema file; the message says where.</exception>
    public static List<SchemaFileType> Read(string json)
    {
        var root = new JsonText(json).ReadDocument();
        var types = new List<SchemaFileType>();
        var position = 0;
        foreach (var node in new Members(root, "$", RootMembers).Required("types").Array("$.types"))
        {
            types.Add(ReadType(node, $"$.types[{position++}]"));
        }

        return types;
    }

    private static SchemaFileType ReadType(Node node, string path)
    {
        var members = new Members(node, path, TypeMembers);
        var type = new SchemaFileType(members.Required("name").String(path + ".name"), members.Required("id").Int32(path + ".id")) { Path = path, Position = node.Position };
        var fields = members.Optional("fields");
        var cases = members.Optional("cases");
        if ((fields is null) == (cases is null))
        {
            throw node.Error(path, "a type has either fields (a record) or cases (a union)");
        }

        var position = 0;
        foreach (var field in fields?.Array(path + ".fields") ?? [])
        {
            var fieldPath = $"{path}.fields[{position++}]";
            var of = new Members(field, fieldPath, FieldMembers);
            type.Fields.Add(new SchemaFileField(
                of.Required("name").String(fieldPath + ".name"),
                of.Required("index").Int32(fieldPath + ".index"),
                of.Required("type").String(fieldPath + ".type"),
                of.Optional("encoding") is { } encoding ? ParseEncoding(encoding, fieldPath + ".encoding") : IntegerEncoding.ZigZag,
                of.Optional("omitDefault")?.Bool(fieldPath + ".omitDefault") ?? false,
                of.Optional("required")?.Bool(fieldPath + ".required") ?? false) { Path = fieldPath, Position = field.Position });
        }

        if (cases is not null)
        {
            type.Cases = [];
            position = 0;
            foreach (var union in cases.Array(path + ".cases"))
            {
                var casePath = $"{path}.cases[{position++}]";
                var of = new Members(union, casePath, CaseMembers);
                type.Cases.Add(new SchemaFileCase(of.Required("tag").Int32(casePath + ".tag"), of.Required("type").String(casePath + ".type")));
            }
        }

        position = 0;
        foreach (var index in members.Optional("reserved")?.Array(path + ".reserved") ?? [])
        {
            type.Reserved.Add(index.Int32($"{path}.reserved[{position++}]"));
        }

        if (members.Optional("unknownFields") is { } unknown)
        {
            type.RetainsUnknownFields = unknown.String(path + ".unknownFields") switch
            {
                "retain" => cases is null ? true : throw unknown.Error(path + ".unknownFields", "a union has no fields of its own to keep unknown ones beside"),
                "skip" => false,
                _ => throw unknown.Error(path + ".unknownFields", "expected \"skip\" or \"retain\""),
            };
        }

        return type;
    }

    private static IntegerEncoding ParseEncoding(Node node, string path) => node.String(path) switch
    {
        "zigzag" => IntegerEncoding.ZigZag,
        "twos-complement" => IntegerEncoding.TwosComplement,
        _ => throw node.Error(path, "expected \"zigzag\" or \"twos-complement\""),
    };

    /// <summary>An object's members, checked against those it may have: an unknown one, or one given a second time (located
    /// at the second), is refused.</summary>
    private sealed class Members
    {
        private readonly Node _node;
        private readonly string _path;

        public Members(Node node, string path, string[] allowed)
        {
            if (node.Members is null)
            {
                throw node.Error(path, $"expected an object, not {node.Describe()}");
            }

            for (var i = 0; i < node.Members.Count; i++)
            {
                var (name, value) = node.Members[i];
                if (Array.IndexOf(allowed, name) < 0)
                {
                    throw value.Error(path, $"unknown member '{name}'; the members here are {string.Join(", ", allowed)}");
                }

                if (node.Members.Take(i).Any(m => m.Name == name))
                {
                    throw value.Error(path, $"the member '{name}' is given twice");
                }
            }

            (_node, _path) = (node, path);
        }

        public Node Required(string name) => Optional(name) ?? throw _node.Error(_path, $"the member '{name}' is missing");

        public Node? Optional(string name) => _node.Members!.FirstOrDefault(m => m.Name == name).Value;
    }

    /// <summary>Writes types as a schema file: two-space indentation, a field or case a line, optional members only when set.</summary>
    public static string Write(IEnumerable<SchemaFileType> types)
    {
        var text = new StringBuilder("{\n  \"types\": [");
        var firstType = true;
        foreach (var type in types)
        {
            text.Append(firstType ? "\n" : ",\n").Append("    {\n      \"name\": ").Append(Quote(type.Name)).Append(",\n      \"id\": ").Append(type.Id.ToString(CultureInfo.InvariantCulture));
            firstType = false;
            if (type.Cases is { } cases)
            {
                AppendList(text, "cases", cases.Select(c => $"{{ \"tag\": {c.Tag.ToString(CultureInfo.InvariantCulture)}, \"type\": {Quote(c.Type)} }}"));
            }
            else
            {
                AppendList(text, "fields", type.Fields.Select(FieldLine));
            }

            if (type.Reserved.Count > 0)
            {
                text.Append(",\n      \"reserved\": [").Append(string.Join(", ", type.Reserved.Select(i => i.ToString(CultureInfo.InvariantCulture)))).Append(']');
            }

            if (type.RetainsUnknownFields)
            {
                text.Append(",\n      \"unknownFields\": \"retain\"");
            }

            text.Append("\n    }");
        }

        return text.Append(firstType ? "]\n}\n" : "\n  ]\n}\n").ToString();
    }

    private static void AppendList(StringBuilder text, string name, IEnumerable<string> lines)
    {
        var items = lines.ToList();
        text.Append(",\n      \"").Append(name).Append("\": [");
        text.Append(items.Count == 0 ? "]" : "\n        " + string.Join(",\n        ", items) + "\n      ]");
    }

    private static string FieldLine(SchemaFileField field)
    {
        var line = new StringBuilder("{ \"name\": ").Append(Quote(field.Name)).Append(", \"index\": ").Append(field.Index.ToString(CultureInfo.InvariantCulture)).Append(", \"type\": ").Append(Quote(field.Type));
        if (field.Encoding == IntegerEncoding.TwosComplement)
        {
            line.Append(", \"encoding\": \"twos-complement\"");
        }

        if (field.OmitDefault)
        {
            line.Append(", \"omitDefault\": true");
        }

        if (field.Required)
        {
            line.Append(", \"required\": true");
        }

        return line.Append(" }").ToString();
    }

    private static string Quote(string value)
    {
        var text = new StringBuilder("\"");
        foreach (var c in value)
        {
            _ = c switch
            {
                '"' => text.Append("\\\""),
                '\\' => text.Append("\\\\"),
                < ' ' => text.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture)),
                _ => text.Append(c),
            };
        }

        return text.Append('"').ToString();
    }

    /// <summary>A JSON value with where it starts in the text, for located errors.</summary>
    private sealed class Node(string text, int start)
    {
        public string? Text { get; init; }

        public bool IsString { get; init; }

        public bool? Boolean { get; init; }

        public List<Node>? Items { get; init; }

        public List<(string Name, Node Value)>? Members { get; init; }

        public string Describe() => Members is not null ? "an object" : Items is not null ? "an array" : IsString ? "a string" : Boolean is not null ? "a boolean" : Text is null ? "null" : "a number";

        public string String(string path) => IsString ? Text! : throw Error(path, $"expected a string, not {Describe()}");

        public bool Bool(string path) => Boolean ?? throw Error(path, $"expected true or false, not {Describe()}");

        public List<Node> Array(string path) => Items ?? throw Error(path, $"expected an array, not {Describe()}");

        public int Int32(string path) =>
            !IsString && Text is { } number && int.TryParse(number, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value)
                ? value
                : throw Error(path, $"expected an integer from {int.MinValue} to {int.MaxValue}, not {(IsString || Text is null ? Describe() : Text)}");

        /// <summary>Gets where the value starts, as an error says it: <c> (line 3, column 5)</c>.</summary>
        public string Position => JsonText.Position(text, start);

        public FormatException Error(string path, string message) => new($"{path}: {message}{Position}");
    }

    /// <summary>A JSON text (RFC 8259) read into nodes; strict: no comments, no trailing commas, no member given twice.</summary>
    private sealed class JsonText(string text)
    {
        private int _position;

        public Node ReadDocument()
        {
            var value = ReadValue(0);
            SkipSpace();
            return _position == text.Length ? value : throw Error(text, _position, "the JSON text goes on after its value");
        }

        public static FormatException Error(string text, int position, string message) => new($"{message}{Position(text, position)}");

        public static string Position(string text, int position)
        {
            var line = 1;
            var column = 1;
            for (var i = 0; i < position && i < text.Length; i++)
            {
                (line, column) = text[i] == '\n' ? (line + 1, 1) : (line, column + 1);
            }

            return $" (line {line.ToString(CultureInfo.InvariantCulture)}, column {column.ToString(CultureInfo.InvariantCulture)})";
        }

        private Node ReadValue(int depth)
        {
            SkipSpace();
            var start = _position;
            if (_position == text.Length)
            {
                throw Error(text, start, "$: the JSON text ends where a value was expected");
            }

            if (depth > MaxNesting)
            {
                throw Error(text, start, $"$: the JSON nests deeper than {MaxNesting} levels");
            }

            switch (text[_position])
            {
                case '{':
                    _position++;
                    var members = new List<(string Name, Node Value)>();
                    if (!TryTake('}'))
                    {
                        do
                        {
                            SkipSpace();
                            var name = _position < text.Length && text[_position] == '"' ? ReadString() : throw Error(text, _position, "$: expected a member name in quotes");
                            Expect(':');
                            members.Add((name, ReadValue(depth + 1)));
                        }
                        while (TryTake(','));
                        Expect('}');
                    }

                    return new Node(text, start) { Members = members };
                case '[':
                    _position++;
                    var items = new List<Node>();
                    if (!TryTake(']'))
                    {
                        do
                        {
                            items.Add(ReadValue(depth + 1));
                        }
                        while (TryTake(','));
                        Expect(']');
                    }

                    return new Node(text, start) { Items = items };
                case '"':
                    return new Node(text, start) { Text = ReadString(), IsString = true };
                case 't' when Literal("true"):
                    return new Node(text, start) { Boolean = true };
                case 'f' when Literal("false"):
                    return new Node(text, start) { Boolean = false };
                case 'n' when Literal("null"):
                    return new Node(text, start);
                default:
                    return new Node(text, start) { Text = ReadNumber() };
            }
        }

        private string ReadNumber()
        {
            var start = _position;
            TryTake('-', skipSpace: false);
            var digits = Digits();
            if (digits == 0 || (digits > 1 && text[_position - digits] == '0'))
            {
                throw Error(text, start, "$: not a JSON value");
            }

            if (TryTake('.', skipSpace: false) && Digits() == 0)
            {
                throw Error(text, start, "$: a number's fraction has no digits");
            }

            if (TryTake('e', skipSpace: false) || TryTake('E', skipSpace: false))
            {
                _ = TryTake('+', skipSpace: false) || TryTake('-', skipSpace: false);
                if (Digits() == 0)
                {
                    throw Error(text, start, "$: a number's exponent has no digits");
                }
            }

            return text.Substring(start, _position - start);
        }

        private int Digits()
        {
            var start = _position;
            while (_position < text.Length && text[_position] is >= '0' and <= '9')
            {
                _position++;
            }

            return _position - start;
        }

        private string ReadString()
        {
            var start = _position++;
            var value = new StringBuilder();
            while (true)
            {
                if (_position == text.Length)
                {
                    throw Error(text, start, "$: a string is not closed");
                }

                var c = text[_position++];
                switch (c)
                {
                    case '"':
                        return value.ToString();
                    case < ' ':
                        throw Error(text, _position - 1, "$: a control character in a string must be escaped");
                    case '\\' when _position < text.Length:
                        var escape = text[_position++];
                        _ = escape switch
                        {
                            '"' or '\\' or '/' => value.Append(escape),
                            'b' => value.Append('\b'),
                            'f' => value.Append('\f'),
                            'n' => value.Append('\n'),
                            'r' => value.Append('\r'),
                            't' => value.Append('\t'),
                            'u' when Hex4() is { } code => value.Append(code),
                            _ => throw Error(text, _position - 2, "$: not a JSON escape"),
                        };
                        if (escape == 'u')
                        {
                            _position += 4;
                        }

                        break;
                    default:
                        value.Append(c);
                        break;
                }
            }
        }

        // The four hex digits of a \u escape, at the position.
        private char? Hex4()
        {
            var code = 0;
            for (var i = _position; i < _position + 4; i++)
            {
                var digit = i < text.Length ? text[i] switch
                {
                    >= '0' and <= '9' => text[i] - '0',
                    >= 'a' and <= 'f' => text[i] - 'a' + 10,
                    >= 'A' and <= 'F' => text[i] - 'A' + 10,
                    _ => -1,
                } : -1;
                if (digit < 0)
                {
                    return null;
                }

                code = (code * 16) + digit;
            }

            return (char)code;
        }

        private bool Literal(string literal)
        {
            if (string.CompareOrdinal(text, _position, literal, 0, literal.Length) != 0)
            {
                return false;
            }

            _position += literal.Length;
            return true;
        }

        private void Expect(char c)
        {
            if (!TryTake(c))
            {
                throw Error(text, _position, _position == text.Length ? $"$: the JSON text ends where '{c}' was expected" : $"$: expected '{c}'");
            }
        }

        private bool TryTake(char c, bool skipSpace = true)
        {
            if (skipSpace)
            {
                SkipSpace();
            }

            if (_position < text.Length && text[_position] == c)
            {
                _position++;
                return true;
            }

            return false;
        }

        private void SkipSpace()
        {
            while (_position < text.Length && text[_position] is ' ' or '\t' or '\n' or '\r')
            {
                _position++;
            }
        }
    }
}

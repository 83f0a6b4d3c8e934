using Millrace.Compact.Wire;

namespace Millrace.Compact.Schema;

/// <summary>The type text of a schema file's field (<c>int64</c>, <c>list&lt;string&gt;</c>, <c>map&lt;string,User&gt;</c>, <c>User</c>),
/// read one level at a time; shared by the library and the generator, as <see cref="SchemaFile"/> is.</summary>
internal static class SchemaTypeText
{
    /// <summary>Reads the outer level of a type text: its kind, and the element text of a list or map or the name of a record.</summary>
    /// <exception cref="FormatException">The text is not a type.</exception>
    public static CompactFieldKind Parse(string text, out string? inner)
    {
        var type = text.Replace(" ", string.Empty);
        inner = null;
        if (type.StartsWith("list<", StringComparison.Ordinal) && type[type.Length - 1] == '>')
        {
            inner = type.Substring(5, type.Length - 6);
            return CompactFieldKind.List;
        }

        if (type.StartsWith("map<string,", StringComparison.Ordinal) && type[type.Length - 1] == '>')
        {
            inner = type.Substring(11, type.Length - 12);
            return CompactFieldKind.Map;
        }

        var kind = type switch
        {
            "bool" => CompactFieldKind.Bool,
            "int32" => CompactFieldKind.Int32,
            "int64" => CompactFieldKind.Int64,
            "uint32" => CompactFieldKind.UInt32,
            "uint64" => CompactFieldKind.UInt64,
            "float32" => CompactFieldKind.Float32,
            "float64" => CompactFieldKind.Float64,
            "decimal" => CompactFieldKind.Decimal,
            "string" => CompactFieldKind.String,
            "bytes" => CompactFieldKind.Bytes,
            "guid" => CompactFieldKind.Guid,
            "timestamp" => CompactFieldKind.Timestamp,
            "duration" => CompactFieldKind.Duration,
            _ => CompactFieldKind.Record,
        };

        if (kind == CompactFieldKind.Record)
        {
            if (type.Length == 0 || !type.All(IsNameCharacter))
            {
                throw new FormatException($"'{text}' is not a type: expected a scalar, list<T>, map<string,T> or a type name.");
            }

            inner = type;
        }

        return kind;
    }

    /// <summary>Whether a type's name can be written in a field's type: letters, digits, <c>_</c> and <c>.</c>, and not a scalar's name.</summary>
    public static bool IsTypeName(string name) => name.Length > 0 && name.All(IsNameCharacter) && Parse(name, out _) == CompactFieldKind.Record;

    private static bool IsNameCharacter(char c) => c is (>= 'a' and <= 'z') or (>= 'A' and <= 'Z') or (>= '0' and <= '9') or '_' or '.';

    /// <summary>The fewest bytes an element of a list or map takes, for checking a count against the bytes that remain:
    /// its value's (4 for a Fixed32, 8 for a Fixed64, else 1), and a map key's length byte.</summary>
    public static int MinimumElementSize(WireType element, bool isMap) =>
        (element switch { WireType.Fixed32 => 4, WireType.Fixed64 => 8, _ => 1 }) + (isMap ? 1 : 0);

    /// <summary>Gets the wire type a kind is written with.</summary>
    public static WireType WireTypeOf(CompactFieldKind kind) => kind switch
    {
        CompactFieldKind.Bool or CompactFieldKind.Int32 or CompactFieldKind.Int64 or CompactFieldKind.UInt32 or CompactFieldKind.UInt64
            or CompactFieldKind.Timestamp or CompactFieldKind.Duration => WireType.Varint,
        CompactFieldKind.Float32 => WireType.Fixed32,
        CompactFieldKind.Float64 => WireType.Fixed64,
        _ => WireType.LengthDelimited,
    };
}

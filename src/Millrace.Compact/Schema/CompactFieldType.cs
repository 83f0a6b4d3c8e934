using Millrace.Compact.Wire;

namespace Millrace.Compact.Schema;

/// <summary>A field's type: a kind, the element type of lists and maps, or the record type it names.</summary>
public sealed class CompactFieldType
{
    private CompactFieldType(CompactFieldKind kind, CompactFieldType? element, string? recordName, IntegerEncoding encoding)
    {
        Kind = kind;
        Element = element;
        RecordName = recordName;
        Encoding = encoding;
    }

    /// <summary>Gets the kind.</summary>
    public CompactFieldKind Kind { get; }

    /// <summary>Gets the element type of a list or map's values.</summary>
    public CompactFieldType? Element { get; }

    /// <summary>Gets the type name of a record field.</summary>
    public string? RecordName { get; }

    /// <summary>Gets how an <c>int32</c> or <c>int64</c> value is laid out in its varint (the schema field's
    /// <c>"encoding"</c>: <c>"zigzag"</c>, the default, or <c>"twos-complement"</c>); lists and maps pass it to their elements.</summary>
    public IntegerEncoding Encoding { get; }

    /// <summary>Gets the record type, once the schema set has resolved it.</summary>
    public CompactType? Record { get; internal set; }

    /// <summary>Gets the wire type the kind is written with.</summary>
    public WireType WireType => SchemaTypeText.WireTypeOf(Kind);

    /// <summary>Parses a schema-file type such as <c>int64</c>, <c>list&lt;string&gt;</c>, <c>map&lt;string,User&gt;</c> or <c>User</c>.</summary>
    /// <param name="text">The type text.</param>
    /// <returns>The type.</returns>
    /// <exception cref="FormatException">The text is not a type.</exception>
    public static CompactFieldType Parse(string text) => Parse(text, IntegerEncoding.ZigZag);

    /// <summary>Parses a schema-file type whose signed integers (its own value, or its elements') use an encoding.</summary>
    /// <param name="text">The type text.</param>
    /// <param name="encoding">The integer encoding.</param>
    /// <returns>The type.</returns>
    /// <exception cref="FormatException">The text is not a type, or a non-default encoding is given for a type without
    /// <c>int32</c> or <c>int64</c> values.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="encoding"/> is not an <see cref="IntegerEncoding"/>.</exception>
    public static CompactFieldType Parse(string text, IntegerEncoding encoding)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (!Enum.IsDefined(encoding))
        {
            throw new ArgumentOutOfRangeException(nameof(encoding), encoding, "Not an integer encoding.");
        }

        var kind = SchemaTypeText.Parse(text, out var inner);
        if (kind is CompactFieldKind.List or CompactFieldKind.Map)
        {
            return new CompactFieldType(kind, Parse(inner!, encoding), null, encoding);
        }

        if (encoding != IntegerEncoding.ZigZag && kind is not (CompactFieldKind.Int32 or CompactFieldKind.Int64))
        {
            throw new FormatException($"an encoding other than zigzag applies to int32 and int64 values (and lists and maps of them), not to {text.Replace(" ", string.Empty, StringComparison.Ordinal)}.");
        }

        return new CompactFieldType(kind, null, inner, encoding);
    }

    /// <inheritdoc />
    public override string ToString() => Kind switch
    {
        CompactFieldKind.List => $"list<{Element}>",
        CompactFieldKind.Map => $"map<string,{Element}>",
        CompactFieldKind.Record => RecordName!,
        _ => Kind.ToString().ToLowerInvariant(),
    };
}

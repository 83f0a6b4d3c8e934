namespace Millrace.Compact.Schema;

/// <summary>The value types of a runtime schema, by their schema-file names.</summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1720:Identifier contains type name", Justification = "They name the schema file's types, which are these .NET types.")]
public enum CompactFieldKind
{
    /// <summary><c>bool</c>: a varint 0 or 1.</summary>
    Bool,

    /// <summary><c>int32</c>: a zigzag varint.</summary>
    Int32,

    /// <summary><c>int64</c>: a zigzag varint.</summary>
    Int64,

    /// <summary><c>uint32</c>: a varint.</summary>
    UInt32,

    /// <summary><c>uint64</c>: a varint.</summary>
    UInt64,

    /// <summary><c>float32</c>: 4 little-endian bytes.</summary>
    Float32,

    /// <summary><c>float64</c>: 8 little-endian bytes.</summary>
    Float64,

    /// <summary><c>decimal</c>: 16 length-delimited bytes, as <see cref="decimal.GetBits(decimal)"/> in little-endian order.</summary>
    Decimal,

    /// <summary><c>string</c>: length-delimited UTF-8.</summary>
    String,

    /// <summary><c>bytes</c>: length-delimited bytes (base64 in JSON).</summary>
    Bytes,

    /// <summary><c>guid</c>: 16 length-delimited bytes, RFC 4122 order.</summary>
    Guid,

    /// <summary><c>timestamp</c>: a zigzag varint of 100 ns ticks since 1970-01-01T00:00:00Z (ISO 8601 in JSON).</summary>
    Timestamp,

    /// <summary><c>duration</c>: a zigzag varint of 100 ns ticks (<c>d.hh:mm:ss.fffffff</c> in JSON).</summary>
    Duration,

    /// <summary><c>list&lt;T&gt;</c>: length-delimited: a varint count, then each element's value without a key.</summary>
    List,

    /// <summary><c>map&lt;string,T&gt;</c>: length-delimited: a varint count, then each key (a length-delimited string) and value.</summary>
    Map,

    /// <summary>A type name: a length-delimited record of that type's fields.</summary>
    Record,
}

namespace Millrace.Compact.Wire;

/// <summary>How a field's value is laid out after its key; the low 2 bits of every key.</summary>
public enum WireType
{
    /// <summary>An unsigned LEB128 varint (signed integers are zigzag-encoded first).</summary>
    Varint = 0,

    /// <summary>4 little-endian bytes.</summary>
    Fixed32 = 1,

    /// <summary>8 little-endian bytes.</summary>
    Fixed64 = 2,

    /// <summary>A varint byte length, then that many bytes: strings, bytes, nested records, lists and maps.</summary>
    LengthDelimited = 3,
}

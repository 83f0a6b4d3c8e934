namespace Millrace.Compact.Wire;

/// <summary>How a signed integer field (<c>int32</c>, <c>int64</c> and enums over them) is laid out in its varint.</summary>
public enum IntegerEncoding
{
    /// <summary>The default: zigzag first, so small values of either sign are short (-1 is one byte, a 64-bit value
    /// at most 10 bytes); a positive value costs one bit more than with <see cref="TwosComplement"/>, which is a
    /// byte more from 64 to 127, 8,192 to 16,383 and so on.</summary>
    ZigZag = 0,

    /// <summary>The value's 64-bit two's complement as an unsigned varint, as protobuf's <c>int32</c> and
    /// <c>int64</c>: for fields that are never negative (ids, counts), a byte shorter than zigzag at the edges above;
    /// a negative value always costs 10 bytes. Changing a field's encoding changes what its bytes mean: treat it as
    /// a change of type (a new index).</summary>
    TwosComplement = 1,
}

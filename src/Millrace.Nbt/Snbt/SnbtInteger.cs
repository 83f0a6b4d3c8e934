using System.Globalization;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// An integer literal of the 1.21.5+ grammar as read, before its type is settled: a top-level literal takes the type
/// its suffix names (int without one), an array element the array's. Hex and binary literals are unsigned unless
/// suffixed <c>s</c>, decimal ones signed unless suffixed <c>u</c>; an unsigned literal may use the type's whole width
/// (<c>255ub</c> and <c>0xFFub</c> are the byte -1) and may not be negative.
/// </summary>
/// <param name="Start">Where the literal starts, for errors.</param>
/// <param name="End">Where it ends.</param>
/// <param name="Negative">Whether a minus sign precedes it.</param>
/// <param name="Radix">2, 10 or 16.</param>
/// <param name="Digits">The digits as written, <c>_</c> separators included.</param>
/// <param name="Signed"><see langword="true"/> for an <c>s</c> marker, <see langword="false"/> for <c>u</c>, <see langword="null"/> for none.</param>
/// <param name="Type">The type letter (<c>b</c>, <c>s</c>, <c>i</c>, <c>l</c>), or <c>'\0'</c> for none.</param>
internal readonly record struct SnbtInteger(int Start, int End, bool Negative, int Radix, string Digits, bool? Signed, char Type)
{
    /// <summary>Gets the name of a type letter, for messages.</summary>
    public static string TypeName(char type) => type switch
    {
        'b' => "byte",
        's' => "short",
        'l' => "long",
        _ => "int",
    };

    /// <summary>Makes the tag of the literal's own type.</summary>
    public NbtTag ToTag(SnbtParser parser)
    {
        var type = Type == '\0' ? 'i' : Type;
        var value = Value(type, parser);
        return type switch
        {
            'b' => new NbtByte((sbyte)value),
            's' => new NbtShort((short)value),
            'l' => new NbtLong(value),
            _ => new NbtInt((int)value),
        };
    }

    /// <summary>Gets the value as <paramref name="type"/>, sign-extended to 64 bits, or refuses it as out of that type's range.</summary>
    public long Value(char type, SnbtParser parser)
    {
        var bits = type switch { 'b' => 8, 's' => 16, 'l' => 64, _ => 32 };
        var signed = Signed ?? Radix == 10;
        if (!signed && Negative)
        {
            throw parser.ErrorAt(
                "A negative number must be signed: hex and binary literals are unsigned unless suffixed 's' (as in -0x1sl), and a 'u' suffix makes any literal unsigned.", Start);
        }

        // Digits past 128 bits are out of every type's range; leading zeros (0x0001) add nothing.
        UInt128 magnitude = 0;
        var overflow = false;
        foreach (var c in Digits)
        {
            if (c == '_')
            {
                continue;
            }

            var digit = (uint)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
            overflow |= magnitude > (UInt128.MaxValue - digit) / (uint)Radix;
            magnitude = overflow ? magnitude : (magnitude * (uint)Radix) + digit;
        }

        UInt128 limit = signed ? (UInt128.One << (bits - 1)) - (Negative ? UInt128.Zero : UInt128.One) : (UInt128.One << bits) - 1;
        if (overflow || magnitude > limit)
        {
            throw parser.ErrorAt(string.Create(CultureInfo.InvariantCulture, $"The number '{parser.TextOf(Start, End)}' is out of range for {(signed ? "a signed" : "an unsigned")} {TypeName(type)}."), Start);
        }

        var value = (ulong)magnitude;
        if (Negative)
        {
            value = 0 - value;
        }

        // An unsigned value that fills the type's width is its two's complement: 255ub is the byte -1.
        return bits == 64 ? (long)value : (long)(value << (64 - bits)) >> (64 - bits);
    }
}

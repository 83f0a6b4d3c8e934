namespace Millrace.Nbt.Snbt;

/// <summary>
/// Which Minecraft's SNBT grammar to read and write. The two read some inputs differently (<c>07</c>, <c>128b</c>,
/// <c>1e5</c>, <c>1abc</c>, <c>[B;1]</c>, escapes in quoted strings): docs/bad-input.md lists every difference.
/// </summary>
public enum SnbtSyntax
{
    /// <summary>
    /// Java Edition 1.21.5 and later: hex and binary literals, <c>_</c> separators, signed and unsigned suffixes,
    /// escapes, <c>bool(…)</c> and <c>uuid(…)</c>, lists of mixed types; an unquoted string may not start like a
    /// number, and a number the grammar cannot read (<c>07</c>, <c>128b</c>, <c>1e999</c>) is refused.
    /// </summary>
    Modern = 0,

    /// <summary>
    /// Java Edition 1.21.4 and earlier: suffixed decimal numbers, <c>[B;…]</c> arrays of suffixed elements, quoted
    /// strings with only <c>\\</c> and the quote escaped, lists of one type; any token that is not exactly a number
    /// (<c>07</c>, <c>128b</c>, <c>1e5</c>) is read as a string, as the game did.
    /// </summary>
    Legacy = 1,
}

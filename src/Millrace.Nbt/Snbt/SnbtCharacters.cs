using System.Buffers;

namespace Millrace.Nbt.Snbt;

/// <summary>Character classes shared by the SNBT reader and writer: those of Minecraft's command reader.</summary>
internal static class SnbtCharacters
{
    /// <summary>The characters of unquoted names and strings (Brigadier's <c>isAllowedInUnquotedString</c>).</summary>
    public static readonly SearchValues<char> Unquoted =
        SearchValues.Create("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-.+");

    /// <summary>
    /// Gets whether Java's <c>Character.isWhitespace</c> holds, the test both grammars skip whitespace with: the
    /// space, line and paragraph separators but the three no-break spaces, and nine control characters. It differs from
    /// <see cref="char.IsWhiteSpace(char)"/>, which also takes U+0085 and the no-break spaces. The set is written out so
    /// it does not move with the platform's Unicode version.
    /// </summary>
    public static bool IsWhitespace(char c) => c switch
    {
        ' ' or (>= '\t' and <= '\r') or (>= '\u001C' and <= '\u001F') => true,
        < '\u1680' => false,
        '\u1680' or (>= '\u2000' and <= '\u2006') or (>= '\u2008' and <= '\u200A') or '\u2028' or '\u2029' or '\u205F' or '\u3000' => true,
        _ => false,
    };

    /// <summary>Gets whether a 1.21.5+ value starting with <paramref name="c"/> must be a number (it can be no unquoted string).</summary>
    public static bool CanStartNumber(char c) => c is '+' or '-' or '.' or (>= '0' and <= '9');

    /// <summary>Gets whether <paramref name="c"/> starts a quoted string.</summary>
    public static bool IsQuote(char c) => c is '"' or '\'';
}

using System.Text;
using System.Text.RegularExpressions;

namespace Millrace.Json;

/// <summary>
/// Error messages in the caller's terms. The serializer's and the reader's own messages quote whatever was left in
/// their buffer (so the same input gives different messages when it arrives in different pieces) and speak of their
/// internals (<c>isFinalBlock</c>, <c>System.Int32</c>); these say what is wrong with the input, and only that.
/// </summary>
internal static partial class JsonMessages
{
    /// <summary>
    /// Finds where the token the reader gave up on starts: the reader stops where it knew the input was wrong (for
    /// <c>tru}</c>, the <c>}</c>), while the caller is better shown the token that went wrong (the <c>t</c>). The
    /// reader's own count of consumed bytes can stop before the separators in front of that token; they are skipped.
    /// </summary>
    /// <param name="input">The bytes.</param>
    /// <param name="consumed">The reader's consumed position when it threw.</param>
    /// <param name="position">Where the reader gave up.</param>
    /// <returns>The token's start, never after <paramref name="position"/>.</returns>
    public static int OffendingToken(ReadOnlySpan<byte> input, int consumed, int position)
    {
        while (consumed < position && input[consumed] is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n' or (byte)',' or (byte)':')
        {
            consumed++;
        }

        return Math.Clamp(consumed, 0, position);
    }

    /// <summary>Describes malformed JSON by its offending token, or by the end of the input when it ran out first.</summary>
    /// <param name="input">The bytes the positions are in.</param>
    /// <param name="token">Where the offending token starts.</param>
    /// <param name="position">Where the reader gave up, at or after <paramref name="token"/>.</param>
    /// <returns>The message.</returns>
    public static string Malformed(ReadOnlySpan<byte> input, long token, long position)
    {
        const int MaxQuoted = 24;
        if (token >= input.Length)
        {
            return "The JSON ends before the value is complete.";
        }

        var end = Math.Min(Math.Min(position + 1, input.Length), token + MaxQuoted);
        if (end - token <= 1)
        {
            return $"The JSON is malformed: {Show(input[(int)token])} is not valid here.";
        }

        var quoted = new StringBuilder();
        foreach (var b in input[(int)token..(int)end])
        {
            quoted.Append(b is >= 0x20 and < 0x7F ? (char)b : '?');
        }

        return $"The JSON is malformed: '{quoted}' is not valid here.";
    }

    /// <summary>Shows a byte or character of input: printable ASCII as itself, anything else as hexadecimal.</summary>
    /// <param name="c">The byte or character.</param>
    /// <returns>It, quoted.</returns>
    public static string Show(int c) => c is >= 0x20 and < 0x7F ? $"'{(char)c}'" : $"0x{c:X2}";

    /// <summary>
    /// Keeps what a binding error says about the value and the member, and drops the rest: the serializer's path and
    /// position (the error carries its own), and the namespaces of type names (<c>System.Int32</c> reads as <c>int</c>).
    /// </summary>
    /// <param name="message">The serializer's message.</param>
    /// <returns>The message in the caller's terms.</returns>
    public static string Binding(string message)
    {
        foreach (var marker in (ReadOnlySpan<string>)[" Path:", " LineNumber:"])
        {
            var cut = message.IndexOf(marker, StringComparison.Ordinal);
            if (cut > 0)
            {
                message = message[..cut];
            }
        }

        return TypeName().Replace(message, static match => Simplify(match.Value));
    }

    /// <summary>Turns <c>System.Collections.Generic.List`1[System.Int32]</c> into <c>List&lt;int&gt;</c>.</summary>
    private static string Simplify(string qualified)
    {
        var text = new StringBuilder();
        var start = 0;
        for (var i = 0; i <= qualified.Length; i++)
        {
            if (i < qualified.Length && qualified[i] is not ('[' or ']' or ','))
            {
                continue;
            }

            text.Append(Alias(qualified[start..i]));
            if (i < qualified.Length)
            {
                text.Append(qualified[i] switch { '[' => '<', ']' => '>', _ => ',' });
            }

            start = i + 1;
        }

        return text.ToString();
    }

    private static string Alias(string name)
    {
        var simple = name[(name.LastIndexOf('.') + 1)..];
        var tick = simple.IndexOf('`', StringComparison.Ordinal);
        simple = tick >= 0 ? simple[..tick] : simple;
        return simple switch
        {
            "Int32" => "int",
            "Int64" => "long",
            "Int16" => "short",
            "Byte" => "byte",
            "SByte" => "sbyte",
            "UInt32" => "uint",
            "UInt64" => "ulong",
            "UInt16" => "ushort",
            "Double" => "double",
            "Single" => "float",
            "Decimal" => "decimal",
            "Boolean" => "bool",
            "String" => "string",
            "Char" => "char",
            "Object" => "object",
            _ => simple,
        };
    }

    // A namespace-qualified type name as Type.ToString() writes it: Ns.Outer+Inner`1[Ns.Arg].
    [GeneratedRegex(@"\b[A-Za-z_]\w*(?:[.+][A-Za-z_]\w*)+(?:`\d+)?(?:\[[^\]\s]*\]+)?", RegexOptions.CultureInvariant)]
    private static partial Regex TypeName();
}

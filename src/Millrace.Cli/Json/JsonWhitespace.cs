using System.Buffers;

namespace Millrace.Cli.Json;

/// <summary>
/// Prints an item compactly by dropping the whitespace between its tokens, and nothing else: every token keeps its
/// bytes as the input has them (escapes, number spellings), so <c>json head</c> shows the items, not a re-encoding.
/// </summary>
internal static class JsonWhitespace
{
    /// <summary>Writes <paramref name="json"/>, one well-formed JSON value, without the whitespace outside its strings.</summary>
    /// <param name="json">The value's UTF-8 bytes.</param>
    /// <param name="output">Where the compact bytes go.</param>
    public static void WriteWithout(ReadOnlySpan<byte> json, IBufferWriter<byte> output)
    {
        var span = output.GetSpan(json.Length);
        var written = 0;
        var inString = false;
        var escaped = false;
        foreach (var b in json)
        {
            if (inString)
            {
                // Inside a string every byte is kept; only an unescaped quote ends it.
                if (escaped)
                {
                    escaped = false;
                }
                else if (b == (byte)'\\')
                {
                    escaped = true;
                }
                else if (b == (byte)'"')
                {
                    inString = false;
                }
            }
            else if (b is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')
            {
                continue;
            }
            else if (b == (byte)'"')
            {
                inString = true;
            }

            span[written++] = b;
        }

        output.Advance(written);
    }
}

using System.Globalization;
using System.Text.Json;

namespace Millrace.Json;

/// <summary>
/// The check every JSON path makes that its text is UTF-8 (RFC 8259), and the one error it gives. System.Text.Json's
/// tokenizer checks structure, not the bytes inside strings and names: a binder that decoded them threw the platform's
/// <see cref="InvalidOperationException"/>, and a reader that did not passed them on. Bytes outside strings are ASCII in
/// any JSON the tokenizer accepts, so checking a whole item checks its strings; it is one vectorized pass.
/// </summary>
public static class JsonText
{
    /// <summary>The message of a <see cref="JsonErrorCodes.Encoding"/> error.</summary>
    public const string NotUtf8 = "The JSON is not UTF-8 here: a string or name holds bytes UTF-8 does not allow.";

    /// <summary>Checks that JSON text is UTF-8, as every reader of this library does.</summary>
    /// <param name="utf8Json">The text.</param>
    /// <returns>The <see cref="JsonErrorCodes.Encoding"/> error at its first byte that is not UTF-8, or <see langword="null"/>.</returns>
    public static Error? CheckUtf8(ReadOnlySpan<byte> utf8Json) =>
        IndexOfInvalidUtf8(utf8Json) is >= 0 and var invalid ? NotUtf8Error(invalid, itemIndex: null, path: null) : null;

    /// <summary>Finds the first byte of <paramref name="json"/> that is not UTF-8.</summary>
    /// <param name="json">JSON the tokenizer has read.</param>
    /// <returns>Its offset, or -1.</returns>
    internal static int IndexOfInvalidUtf8(ReadOnlySpan<byte> json) => Utf8Text.IndexOfInvalid(json);

    /// <summary>The error for text that stops being UTF-8 at <paramref name="offset"/>.</summary>
    /// <param name="offset">The offset of the first invalid byte in the whole input.</param>
    /// <param name="itemIndex">The item it is in, when there is one.</param>
    /// <param name="path">The item's path, or the path of what holds the bytes.</param>
    /// <returns>A <see cref="JsonErrorCodes.Encoding"/> error.</returns>
    internal static Error NotUtf8Error(long offset, long? itemIndex, string? path) => new(JsonErrorCodes.Encoding, NotUtf8)
    {
        ByteOffset = offset,
        ItemIndex = itemIndex,
        Path = path,
    };

    /// <summary>
    /// System.Text.Json's syntax error for a whole document, located by its absolute byte offset as well as its line and
    /// column (counted from 1, as editors do), its own position words dropped.
    /// </summary>
    /// <param name="exception">What <see cref="Utf8JsonReader"/> or <see cref="JsonDocument"/> threw for the text.</param>
    /// <param name="utf8Json">The text it read, from its first byte.</param>
    /// <returns>A <see cref="JsonErrorCodes.Syntax"/> error.</returns>
    public static Error SyntaxError(JsonException exception, ReadOnlySpan<byte> utf8Json)
    {
        ArgumentNullException.ThrowIfNull(exception);
        var line = exception.LineNumber ?? 0;
        var column = exception.BytePositionInLine ?? 0;
        var reason = exception.Message;
        var cut = reason.IndexOf(" LineNumber:", StringComparison.Ordinal);
        reason = cut > 0 ? reason[..cut].TrimEnd() : reason;
        return new Error(JsonErrorCodes.Syntax, string.Create(CultureInfo.InvariantCulture, $"{reason} (line {line + 1}, column {column + 1})"))
        {
            ByteOffset = OffsetOf(utf8Json, line, column),
        };
    }

    /// <summary>
    /// Turns System.Text.Json's position (lines before it, and bytes into its line) into an offset within
    /// <paramref name="text"/>: the one conversion every reader of this library and the CLI make.
    /// </summary>
    /// <param name="text">The text the position counts in, from where the reader's count starts.</param>
    /// <param name="line">How many line feeds come before the position.</param>
    /// <param name="byteInLine">Its byte within its line.</param>
    /// <returns>The offset, at most <paramref name="text"/>'s length.</returns>
    internal static long OffsetOf(ReadOnlySpan<byte> text, long line, long byteInLine)
    {
        var lineStart = 0;
        for (var i = 0L; i < line; i++)
        {
            var next = text[lineStart..].IndexOf((byte)'\n');
            if (next < 0)
            {
                break;
            }

            lineStart += next + 1;
        }

        return Math.Min(lineStart + byteInLine, text.Length);
    }
}

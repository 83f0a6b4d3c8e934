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
}

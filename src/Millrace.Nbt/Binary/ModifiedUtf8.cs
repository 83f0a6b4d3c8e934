using System.Text;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Java's Modified UTF-8, exactly as <c>DataOutput.writeUTF</c> writes it: U+0000 as <c>C0 80</c>, characters
/// outside the BMP as two 3-byte surrogates, and at most 65,535 bytes.
/// </summary>
public static class ModifiedUtf8
{
    /// <summary>The most bytes a string may encode to.</summary>
    public const int MaxByteCount = ushort.MaxValue;

    /// <summary>Counts the bytes <paramref name="text"/> encodes to.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The byte count.</returns>
    public static int GetByteCount(ReadOnlySpan<char> text)
    {
        if (IsPlainUtf8(text))
        {
            return Encoding.UTF8.GetByteCount(text);
        }

        var count = text.Length;
        foreach (var c in text)
        {
            if (c is '\0' or > '\u007F')
            {
                count += c > '\u07FF' ? 2 : 1;
            }
        }

        return count;
    }

    /// <summary>Encodes <paramref name="text"/> into <paramref name="destination"/>.</summary>
    /// <param name="text">The text.</param>
    /// <param name="destination">Room for <see cref="GetByteCount"/> bytes.</param>
    /// <returns>The bytes written.</returns>
    public static int Encode(ReadOnlySpan<char> text, Span<byte> destination)
    {
        if (IsPlainUtf8(text))
        {
            return Encoding.UTF8.GetBytes(text, destination);
        }

        var written = 0;
        foreach (var c in text)
        {
            if (c is > '\0' and <= '\u007F')
            {
                destination[written++] = (byte)c;
            }
            else if (c <= '\u07FF')
            {
                destination[written++] = (byte)(0xC0 | (c >> 6));
                destination[written++] = (byte)(0x80 | (c & 0x3F));
            }
            else
            {
                destination[written++] = (byte)(0xE0 | (c >> 12));
                destination[written++] = (byte)(0x80 | ((c >> 6) & 0x3F));
                destination[written++] = (byte)(0x80 | (c & 0x3F));
            }
        }

        return written;
    }

    private static readonly System.Buffers.SearchValues<byte> Divergent = System.Buffers.SearchValues.Create([0xC0, 0xC1, 0xE0, 0xED, .. Enumerable.Range(0xF0, 16).Select(b => (byte)b)]);

    // The surrogates as one range, which SearchValues scans vectorized: ContainsAnyInRange allocates on every call until
    // the JIT tiers it up, and a set with U+0000 in it too is no longer a range.
    private static readonly System.Buffers.SearchValues<char> Surrogates = System.Buffers.SearchValues.Create([.. Enumerable.Range(0xD800, 0x800).Select(c => (char)c)]);

    // Modified UTF-8 differs from UTF-8 only in U+0000 (C0 80, not 00) and in characters outside the BMP (two 3-byte
    // surrogates, not one 4-byte sequence): text with neither, most text with colour codes or accents, is the same bytes in
    // both, and the platform's UTF-8 transcoder is vectorized where the loops below take a character at a time.
    private static bool IsPlainUtf8(ReadOnlySpan<char> text) => !text.Contains('\0') && !text.ContainsAny(Surrogates);

    /// <summary>Decodes Modified UTF-8 bytes. Like Java's <c>readUTF</c>, it also accepts a raw zero byte as U+0000.</summary>
    /// <param name="bytes">The bytes.</param>
    /// <param name="text">The text, when the bytes are well formed.</param>
    /// <param name="errorIndex">The index of the first malformed byte, when they are not.</param>
    /// <returns><see langword="true"/> when the bytes are well formed.</returns>
    public static bool TryDecode(ReadOnlySpan<byte> bytes, out string text, out int errorIndex)
    {
        errorIndex = -1;
        // Bytes below 0x80 (a raw zero included) are their chars: widened, with no second validating pass.
        if (Ascii.IsValid(bytes))
        {
            text = Encoding.Latin1.GetString(bytes);
            return true;
        }

        var chars = bytes.Length <= 512 ? stackalloc char[bytes.Length] : new char[bytes.Length];

        // Without the lead bytes where the two decoders differ (C0 and C1, overlong two-byte forms Java reads; E0, overlong
        // three-byte ones; ED, surrogates; F0 and up, four-byte sequences Modified UTF-8 has not), well-formed UTF-8 is
        // read the same by both, and the platform's decoder is vectorized. Bytes it refuses go the long way, for the index.
        if (!bytes.ContainsAny(Divergent)
            && System.Text.Unicode.Utf8.ToUtf16(bytes, chars, out _, out var decoded, replaceInvalidSequences: false) == System.Buffers.OperationStatus.Done)
        {
            text = new string(chars[..decoded]);
            return true;
        }

        var count = 0;
        for (var i = 0; i < bytes.Length;)
        {
            int b = bytes[i];
            if (b < 0x80)
            {
                chars[count++] = (char)b;
                i++;
            }
            else if ((b & 0xE0) == 0xC0 && i + 1 < bytes.Length && (bytes[i + 1] & 0xC0) == 0x80)
            {
                chars[count++] = (char)(((b & 0x1F) << 6) | (bytes[i + 1] & 0x3F));
                i += 2;
            }
            else if ((b & 0xF0) == 0xE0 && i + 2 < bytes.Length && (bytes[i + 1] & 0xC0) == 0x80 && (bytes[i + 2] & 0xC0) == 0x80)
            {
                chars[count++] = (char)(((b & 0x0F) << 12) | ((bytes[i + 1] & 0x3F) << 6) | (bytes[i + 2] & 0x3F));
                i += 3;
            }
            else
            {
                errorIndex = i;
                text = string.Empty;
                return false;
            }
        }

        text = new string(chars[..count]);
        return true;
    }
}

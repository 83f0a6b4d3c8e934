using System.Buffers.Text;
using System.Numerics;

namespace Millrace.Json.Base64;

/// <summary>
/// Decodes base64 held as UTF-16 (<see cref="char"/>) or UTF-8 (<see cref="byte"/>) text with the platform's
/// vectorized decoders, adding what they lack: unpadded standard base64, alphabet detection, and an error that
/// says which character is wrong.
/// </summary>
internal static class Base64Text
{
    /// <summary>Gets an upper bound of the decoded size of <paramref name="length"/> characters, padded or not.</summary>
    public static int MaxDecodedLength(int length) => Base64Url.GetMaxDecodedLength(length);

    public static bool TryDecode<TChar, TDecoder>(ReadOnlySpan<TChar> source, Span<byte> destination, Base64Alphabet alphabet, out int written)
        where TChar : unmanaged, IBinaryInteger<TChar>
        where TDecoder : IBase64Decoder<TChar>
    {
        return alphabet switch
        {
            Base64Alphabet.Standard => TryDecodeStandard<TChar, TDecoder>(source, destination, out written),
            Base64Alphabet.Url => TDecoder.TryDecodeUrl(source, destination, out written),
            _ => TryDecodeStandard<TChar, TDecoder>(source, destination, out written)
                || (HasUrlOnlyCharacters(source) && TDecoder.TryDecodeUrl(source, destination, out written)),
        };
    }

    /// <summary>Explains why <paramref name="source"/> did not decode, and where. Only called on failure.</summary>
    public static Error Describe<TChar>(ReadOnlySpan<TChar> source, Base64Alphabet alphabet)
        where TChar : unmanaged, IBinaryInteger<TChar>
    {
        var significant = 0;
        var paddingAt = -1;
        for (var i = 0; i < source.Length; i++)
        {
            var c = int.CreateTruncating(source[i]);
            if (c == '=')
            {
                paddingAt = paddingAt < 0 ? i : paddingAt;
                continue;
            }

            if (IsWhitespace(c) && alphabet != Base64Alphabet.Url)
            {
                continue;
            }

            if (!IsInAlphabet(c, alphabet))
            {
                return At(i, $"The character {Show(c)} at offset {i} is not in the {Name(alphabet)} base64 alphabet.");
            }

            if (paddingAt >= 0)
            {
                return At(paddingAt, $"Padding '=' at offset {paddingAt} is followed by more base64 data.");
            }

            significant++;
        }

        return significant % 4 == 1
            ? At(source.Length, $"The base64 text ends with a lone character in its last group ({significant} characters).")
            : At(Math.Max(paddingAt, 0), "The base64 padding is malformed.");
    }

    private static bool TryDecodeStandard<TChar, TDecoder>(ReadOnlySpan<TChar> source, Span<byte> destination, out int written)
        where TChar : unmanaged, IBinaryInteger<TChar>
        where TDecoder : IBase64Decoder<TChar>
    {
        if (TDecoder.TryDecodeStandard(source, destination, out written))
        {
            return true;
        }

        // The platform's standard decoders require padding; supply it for an unpadded final group.
        var remainder = source.Length % 4;
        if (remainder < 2 || source.IndexOf(TChar.CreateTruncating('=')) >= 0)
        {
            return false;
        }

        if (!TDecoder.TryDecodeStandard(source[..^remainder], destination, out written))
        {
            return false;
        }

        Span<TChar> last = [TChar.CreateTruncating('='), TChar.CreateTruncating('='), TChar.CreateTruncating('='), TChar.CreateTruncating('=')];
        source[^remainder..].CopyTo(last);
        if (!TDecoder.TryDecodeStandard(last, destination[written..], out var tail))
        {
            return false;
        }

        written += tail;
        return true;
    }

    private static bool HasUrlOnlyCharacters<TChar>(ReadOnlySpan<TChar> source)
        where TChar : unmanaged, IBinaryInteger<TChar>
        => source.IndexOfAny(TChar.CreateTruncating('-'), TChar.CreateTruncating('_')) >= 0;

    private static bool IsInAlphabet(int c, Base64Alphabet alphabet) =>
        c is (>= 'A' and <= 'Z') or (>= 'a' and <= 'z') or (>= '0' and <= '9')
        || (alphabet != Base64Alphabet.Url && c is '+' or '/')
        || (alphabet != Base64Alphabet.Standard && c is '-' or '_');

    private static bool IsWhitespace(int c) => c is ' ' or '\t' or '\r' or '\n';

    private static string Show(int c) => c is >= 0x20 and < 0x7F ? $"'{(char)c}'" : $"0x{c:X2}";

    private static string Name(Base64Alphabet alphabet) => alphabet switch
    {
        Base64Alphabet.Standard => "standard",
        Base64Alphabet.Url => "base64url",
        _ => "standard or base64url",
    };

    private static Error At(long offset, string message) => new(JsonErrorCodes.Base64, message) { ByteOffset = offset };
}

/// <summary>The platform decoders for one kind of text.</summary>
/// <typeparam name="TChar">The code unit: <see cref="char"/> or <see cref="byte"/>.</typeparam>
internal interface IBase64Decoder<TChar>
{
    static abstract bool TryDecodeStandard(ReadOnlySpan<TChar> source, Span<byte> destination, out int written);

    static abstract bool TryDecodeUrl(ReadOnlySpan<TChar> source, Span<byte> destination, out int written);
}

/// <summary>Decoders for UTF-16 text.</summary>
internal readonly struct Utf16Base64Decoder : IBase64Decoder<char>
{
    public static bool TryDecodeStandard(ReadOnlySpan<char> source, Span<byte> destination, out int written) =>
        Convert.TryFromBase64Chars(source, destination, out written);

    public static bool TryDecodeUrl(ReadOnlySpan<char> source, Span<byte> destination, out int written) =>
        Base64Url.DecodeFromChars(source, destination, out _, out written) == System.Buffers.OperationStatus.Done;
}

/// <summary>Decoders for UTF-8 text.</summary>
internal readonly struct Utf8Base64Decoder : IBase64Decoder<byte>
{
    public static bool TryDecodeStandard(ReadOnlySpan<byte> source, Span<byte> destination, out int written) =>
        System.Buffers.Text.Base64.DecodeFromUtf8(source, destination, out _, out written) == System.Buffers.OperationStatus.Done;

    public static bool TryDecodeUrl(ReadOnlySpan<byte> source, Span<byte> destination, out int written) =>
        Base64Url.DecodeFromUtf8(source, destination, out _, out written) == System.Buffers.OperationStatus.Done;
}

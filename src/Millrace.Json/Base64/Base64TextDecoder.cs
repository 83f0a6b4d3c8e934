using System.Buffers;
using System.Buffers.Text;
using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Text;

namespace Millrace.Json.Base64;

/// <summary>
/// Decodes base64 text that arrives in pieces of any size, held as UTF-16 (<see cref="char"/>) or UTF-8
/// (<see cref="byte"/>). Every entry point (a span of chars, a span of bytes, a stream read in chunks) goes through
/// this one decoder, so they accept exactly the same text, produce exactly the same bytes, and refuse bad text with
/// the same error at the same offset, however the text is cut. Runs of alphabet characters are decoded in bulk
/// with the platform's vectorized decoders; only whitespace, padding and errors take the slow path.
/// </summary>
/// <remarks>
/// The accepted text: characters of one alphabet (for <see cref="Base64Alphabet.Auto"/>, whichever alphabet the first
/// distinctive character belongs to), with spaces, tabs, CR and LF ignored anywhere; a final group of 2 or 3
/// characters either unpadded or padded to 4 with <c>=</c>; nothing but whitespace after the padding; the unused
/// bits of a short final group zero (a canonical encoding, which is what the platform's UTF-8 decoders demand).
/// </remarks>
internal struct Base64TextDecoder
{
    private Base64Alphabet _alphabet;
    private Group _carry;
    private int _carryCount;
    private long _offset;
    private long _lastDataOffset;
    private long _paddingAt;
    private int _padding;

    /// <summary>Initializes a decoder at the start of the text.</summary>
    /// <param name="alphabet">The alphabet; <see cref="Base64Alphabet.Auto"/> decides on the first distinctive character.</param>
    public Base64TextDecoder(Base64Alphabet alphabet)
    {
        _alphabet = Enum.IsDefined(alphabet) ? alphabet : throw new ArgumentOutOfRangeException(nameof(alphabet), alphabet, "Unknown base64 alphabet.");
        _paddingAt = -1;
    }

    /// <summary>Gets an upper bound of the bytes one call decodes from <paramref name="length"/> characters.</summary>
    /// <param name="length">How many characters the call is given.</param>
    /// <returns>The size the destination needs, counting the up to three characters carried over from the previous call.</returns>
    public static int MaxDecodedLength(int length) => Base64Url.GetMaxDecodedLength((int)Math.Min(length + 3L, int.MaxValue));

    /// <summary>Decodes the next piece of the text.</summary>
    /// <typeparam name="TChar">The code unit: <see cref="char"/> or <see cref="byte"/>.</typeparam>
    /// <typeparam name="TDecoder">The platform decoders for <typeparamref name="TChar"/>.</typeparam>
    /// <param name="text">The next characters; all are consumed (up to three are carried over).</param>
    /// <param name="destination">At least <see cref="MaxDecodedLength"/> of the text's length.</param>
    /// <param name="written">How many bytes were decoded.</param>
    /// <param name="error">Why the text is not base64, and where.</param>
    /// <returns><see langword="false"/> when the text is malformed.</returns>
    public bool TryDecode<TChar, TDecoder>(ReadOnlySpan<TChar> text, Span<byte> destination, out int written, [NotNullWhen(false)] out Error? error)
        where TChar : unmanaged, IBinaryInteger<TChar>
        where TDecoder : IBase64Decoder<TChar>
    {
        written = 0;
        while (!text.IsEmpty)
        {
            var run = RunLength<TChar, TDecoder>(text);
            if (run > 0)
            {
                if (_paddingAt >= 0)
                {
                    error = At(_paddingAt, $"Padding '=' at offset {_paddingAt} is followed by more base64 data.");
                    return false;
                }

                written += DecodeRun<TChar, TDecoder>(text[..run], destination[written..]);
                _offset += run;
                _lastDataOffset = _offset - 1;
                text = text[run..];
                continue;
            }

            var c = int.CreateTruncating(text[0]);
            if (c == '=')
            {
                _paddingAt = _paddingAt < 0 ? _offset : _paddingAt;
                if (++_padding > 2)
                {
                    error = MalformedPadding();
                    return false;
                }
            }
            else if (!IsWhitespace(c))
            {
                error = At(_offset, $"The character {JsonMessages.Show(c)} at offset {_offset} is not in the {Name(_alphabet)} alphabet.");
                return false;
            }

            _offset++;
            text = text[1..];
        }

        error = null;
        return true;
    }

    /// <summary>Checks the end of the text and decodes its last, short group.</summary>
    /// <param name="destination">At least 2 bytes.</param>
    /// <param name="written">How many bytes were decoded.</param>
    /// <param name="error">Why the text does not end as base64 must, and where.</param>
    /// <returns><see langword="false"/> when the text is truncated or its padding is malformed.</returns>
    public readonly bool TryFinish(Span<byte> destination, out int written, [NotNullWhen(false)] out Error? error)
    {
        written = 0;
        if (_carryCount == 1)
        {
            error = At(_offset, $"The base64 text ends with a lone character in its last group; it is truncated or has a character too many.");
            return false;
        }

        if (_padding > 0 && _carryCount + _padding != 4)
        {
            error = MalformedPadding();
            return false;
        }

        if (_carryCount > 0)
        {
            Span<byte> group = [(byte)'=', (byte)'=', (byte)'=', (byte)'='];
            Span<byte> bytes = stackalloc byte[3];
            ReadOnlySpan<byte> carry = _carry;
            carry[.._carryCount].CopyTo(group);
            if (System.Buffers.Text.Base64.DecodeFromUtf8(group, bytes, out _, out written) == OperationStatus.Done)
            {
                bytes[..written].CopyTo(destination);
            }
            else
            {
                error = At(_lastDataOffset, $"The last base64 group ends at offset {_lastDataOffset} with bits that encode nothing set; it is not a canonical encoding, and may be corrupt.");
                return false;
            }
        }

        error = null;
        return true;
    }

    private static bool IsWhitespace(int c) => c is ' ' or '\t' or '\r' or '\n';

    private static string Name(Base64Alphabet alphabet) => alphabet switch
    {
        Base64Alphabet.Standard => "standard base64",
        Base64Alphabet.Url => "base64url",
        _ => "base64 or base64url",
    };

    private static Error At(long offset, string message) => new(JsonErrorCodes.Base64, message) { ByteOffset = offset };

    private readonly Error MalformedPadding() =>
        At(_paddingAt, $"The base64 padding at offset {_paddingAt} is malformed: a padded last group has 4 characters, 2 or 3 of them data.");

    /// <summary>
    /// How many characters from the start of <paramref name="text"/> are data of the alphabet. In automatic mode the
    /// first character that only one alphabet has decides the alphabet for the rest of the text, so that a text mixing
    /// both is refused at the first character that does not fit.
    /// </summary>
    private int RunLength<TChar, TDecoder>(ReadOnlySpan<TChar> text)
        where TChar : unmanaged, IBinaryInteger<TChar>
        where TDecoder : IBase64Decoder<TChar>
    {
        var run = TDecoder.IndexOfNonData(text, _alphabet);
        run = run < 0 ? text.Length : run;
        if (_alphabet == Base64Alphabet.Auto && run > 0)
        {
            var data = text[..run];
            var standard = data.IndexOfAny(TChar.CreateTruncating('+'), TChar.CreateTruncating('/'));
            var url = data.IndexOfAny(TChar.CreateTruncating('-'), TChar.CreateTruncating('_'));
            if (standard >= 0 || url >= 0)
            {
                _alphabet = url < 0 || (standard >= 0 && standard < url) ? Base64Alphabet.Standard : Base64Alphabet.Url;
                run = TDecoder.IndexOfNonData(text, _alphabet);
                run = run < 0 ? text.Length : run;
            }
        }

        return run;
    }

    /// <summary>Decodes data characters: first completes the carried group, then whole groups in bulk, then carries the rest.</summary>
    private int DecodeRun<TChar, TDecoder>(ReadOnlySpan<TChar> data, Span<byte> destination)
        where TChar : unmanaged, IBinaryInteger<TChar>
        where TDecoder : IBase64Decoder<TChar>
    {
        var written = 0;
        if (_carryCount > 0)
        {
            var take = Math.Min(4 - _carryCount, data.Length);
            Carry(data[..take]);
            data = data[take..];
            if (_carryCount < 4)
            {
                return 0;
            }

            ReadOnlySpan<byte> group = _carry;
            System.Buffers.Text.Base64.DecodeFromUtf8(group, destination, out _, out written);
            _carryCount = 0;
        }

        var whole = data.Length & ~3;
        written += TDecoder.DecodeWholeGroups(data[..whole], destination[written..], _alphabet);
        Carry(data[whole..]);
        return written;
    }

    /// <summary>Keeps up to three characters for the next group, in the standard alphabet (the run was checked against the alphabet).</summary>
    private void Carry<TChar>(ReadOnlySpan<TChar> data)
        where TChar : unmanaged, IBinaryInteger<TChar>
    {
        foreach (var c in data)
        {
            var b = byte.CreateTruncating(c);
            _carry[_carryCount++] = b switch
            {
                (byte)'-' => (byte)'+',
                (byte)'_' => (byte)'/',
                _ => b,
            };
        }
    }

    [InlineArray(4)]
    private struct Group
    {
        private byte _first;
    }
}

/// <summary>The platform's vectorized search and decoders for one kind of text.</summary>
/// <typeparam name="TChar">The code unit: <see cref="char"/> or <see cref="byte"/>.</typeparam>
internal interface IBase64Decoder<TChar>
{
    /// <summary>Finds the first character that is not data of <paramref name="alphabet"/> (for automatic, of either).</summary>
    static abstract int IndexOfNonData(ReadOnlySpan<TChar> text, Base64Alphabet alphabet);

    /// <summary>Decodes whole groups of data characters, all of <paramref name="alphabet"/>; cannot fail.</summary>
    static abstract int DecodeWholeGroups(ReadOnlySpan<TChar> data, Span<byte> destination, Base64Alphabet alphabet);
}

/// <summary>The alphabets, as sets for vectorized search.</summary>
internal static class Base64Alphabets
{
    private const string Common = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    public static readonly SearchValues<char> StandardChars = SearchValues.Create(Common + "+/");
    public static readonly SearchValues<char> UrlChars = SearchValues.Create(Common + "-_");
    public static readonly SearchValues<char> EitherChars = SearchValues.Create(Common + "+/-_");
    public static readonly SearchValues<byte> StandardBytes = SearchValues.Create(Encoding.ASCII.GetBytes(Common + "+/"));
    public static readonly SearchValues<byte> UrlBytes = SearchValues.Create(Encoding.ASCII.GetBytes(Common + "-_"));
    public static readonly SearchValues<byte> EitherBytes = SearchValues.Create(Encoding.ASCII.GetBytes(Common + "+/-_"));
}

/// <summary>Search and decoders for UTF-16 text.</summary>
internal readonly struct Utf16Base64Decoder : IBase64Decoder<char>
{
    public static int IndexOfNonData(ReadOnlySpan<char> text, Base64Alphabet alphabet) => text.IndexOfAnyExcept(alphabet switch
    {
        Base64Alphabet.Standard => Base64Alphabets.StandardChars,
        Base64Alphabet.Url => Base64Alphabets.UrlChars,
        _ => Base64Alphabets.EitherChars,
    });

    public static int DecodeWholeGroups(ReadOnlySpan<char> data, Span<byte> destination, Base64Alphabet alphabet)
    {
        int written;
        if (alphabet == Base64Alphabet.Url)
        {
            Base64Url.DecodeFromChars(data, destination, out _, out written);
        }
        else
        {
            Convert.TryFromBase64Chars(data, destination, out written);
        }

        return written;
    }
}

/// <summary>Search and decoders for UTF-8 text.</summary>
internal readonly struct Utf8Base64Decoder : IBase64Decoder<byte>
{
    public static int IndexOfNonData(ReadOnlySpan<byte> text, Base64Alphabet alphabet) => text.IndexOfAnyExcept(alphabet switch
    {
        Base64Alphabet.Standard => Base64Alphabets.StandardBytes,
        Base64Alphabet.Url => Base64Alphabets.UrlBytes,
        _ => Base64Alphabets.EitherBytes,
    });

    public static int DecodeWholeGroups(ReadOnlySpan<byte> data, Span<byte> destination, Base64Alphabet alphabet)
    {
        int written;
        if (alphabet == Base64Alphabet.Url)
        {
            Base64Url.DecodeFromUtf8(data, destination, out _, out written);
        }
        else
        {
            System.Buffers.Text.Base64.DecodeFromUtf8(data, destination, out _, out written);
        }

        return written;
    }
}

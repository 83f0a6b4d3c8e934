using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Millrace.Json.Streaming;

namespace Millrace.Json.Base64;

/// <summary>
/// Deserializes JSON that arrives base64-encoded, without an intermediate string or byte array: the text is
/// decoded with the platform's vectorized decoders into a pooled buffer, bound straight from that span, and the
/// buffer is cleared and returned. Offsets of base64 errors count characters of the base64 text; offsets of JSON
/// errors count bytes of the decoded JSON.
/// </summary>
public static class Base64Json
{
    /// <summary>Deserializes base64 text held as UTF-16.</summary>
    /// <typeparam name="T">The target type.</typeparam>
    /// <param name="base64">The base64 text.</param>
    /// <param name="typeInfo">Source-generated type information for <typeparamref name="T"/>.</param>
    /// <param name="alphabet">The base64 alphabet; detected by default.</param>
    /// <returns>The value, or a <see cref="JsonErrorCodes.Base64"/>, <see cref="JsonErrorCodes.Syntax"/> or <see cref="JsonErrorCodes.Bind"/> failure.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="alphabet"/> is not a defined value.</exception>
    public static Result<T> Deserialize<T>(ReadOnlySpan<char> base64, JsonTypeInfo<T> typeInfo, Base64Alphabet alphabet = Base64Alphabet.Auto)
        => Deserialize<T, char, Utf16Base64Decoder>(base64, typeInfo, alphabet);

    /// <summary>Deserializes base64 text held as UTF-8 bytes.</summary>
    /// <typeparam name="T">The target type.</typeparam>
    /// <param name="utf8Base64">The base64 text, as UTF-8.</param>
    /// <param name="typeInfo">Source-generated type information for <typeparamref name="T"/>.</param>
    /// <param name="alphabet">The base64 alphabet; detected by default.</param>
    /// <returns>The value, or a <see cref="JsonErrorCodes.Base64"/>, <see cref="JsonErrorCodes.Syntax"/> or <see cref="JsonErrorCodes.Bind"/> failure.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="alphabet"/> is not a defined value.</exception>
    public static Result<T> Deserialize<T>(ReadOnlySpan<byte> utf8Base64, JsonTypeInfo<T> typeInfo, Base64Alphabet alphabet = Base64Alphabet.Auto)
        => Deserialize<T, byte, Utf8Base64Decoder>(utf8Base64, typeInfo, alphabet);

    /// <summary>Deserializes base64 text held as UTF-16, binding by reflection.</summary>
    /// <typeparam name="T">The target type.</typeparam>
    /// <param name="base64">The base64 text.</param>
    /// <param name="serializerOptions">Serializer options; <see cref="JsonSerializerOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="alphabet">The base64 alphabet; detected by default.</param>
    /// <returns>The value, or a failure.</returns>
    [RequiresUnreferencedCode("Binding by reflection may need members that trimming removes; pass a source-generated JsonTypeInfo<T> instead.")]
    [RequiresDynamicCode("Binding by reflection may generate code at run time; pass a source-generated JsonTypeInfo<T> instead.")]
    public static Result<T> Deserialize<T>(ReadOnlySpan<char> base64, JsonSerializerOptions? serializerOptions = null, Base64Alphabet alphabet = Base64Alphabet.Auto)
        => Deserialize(base64, JsonItems.TypeInfo<T>(serializerOptions), alphabet);

    /// <summary>
    /// Deserializes a stream of base64 text (UTF-8), decoding it as it is read: neither the base64 text nor the
    /// decoded JSON is ever held whole.
    /// </summary>
    /// <typeparam name="T">The target type.</typeparam>
    /// <param name="utf8Base64">The base64 text; read to its end and not disposed.</param>
    /// <param name="typeInfo">Source-generated type information for <typeparamref name="T"/>.</param>
    /// <param name="alphabet">The base64 alphabet; detected by default.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>The value, or a failure.</returns>
    public static async ValueTask<Result<T>> DeserializeAsync<T>(Stream utf8Base64, JsonTypeInfo<T> typeInfo, Base64Alphabet alphabet = Base64Alphabet.Auto, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(utf8Base64);
        ArgumentNullException.ThrowIfNull(typeInfo);
        var decoded = new Base64DecodingStream(utf8Base64, alphabet, leaveOpen: true);
        decoded.TrackLines();
        decoded.RefuseTextThatIsNotUtf8();
        await using (decoded.ConfigureAwait(false))
        {
            T? value;
            try
            {
                value = await JsonSerializer.DeserializeAsync(decoded, typeInfo, cancellationToken).ConfigureAwait(false);
            }
            catch (MillraceException exception)
            {
                return Result<T>.Failure(exception.Error);
            }
            catch (Exception exception) when (exception is JsonException or NotSupportedException or InvalidOperationException or ArgumentException)
            {
                // The serializer failed before the end: a base64 error further on, or bytes that are not UTF-8, outrank
                // its failure, as they do when a span is decoded whole before it is bound.
                try
                {
                    await decoded.DrainAsync(cancellationToken).ConfigureAwait(false);
                }
                catch (MillraceException outranking)
                {
                    return Result<T>.Failure(outranking.Error);
                }

                return exception switch
                {
                    // The bytes are gone: the offset is where the serializer stopped, just after the offending token
                    // (Deserialize, which still has them, points at the token's start).
                    JsonException json => JsonBinding<T>.Failure(json, LineOffset(decoded, json) + json.BytePositionInLine, itemIndex: null, "$"),

                    // As Deserialize reports it: a type the serializer cannot create is a binding failure, not a crash.
                    _ => JsonBinding<T>.Failure(exception, 0, itemIndex: null, "$"),
                };
            }

            return JsonBinding<T>.Complete(value, itemIndex: null, 0, "$");
        }
    }

    private static long LineOffset(Base64DecodingStream decoded, JsonException exception) =>
        exception.LineNumber is > 0 and var line && line <= decoded.LineStarts.Count ? decoded.LineStarts[(int)line - 1] : 0;

    private static Result<T> Deserialize<T, TChar, TDecoder>(ReadOnlySpan<TChar> base64, JsonTypeInfo<T> typeInfo, Base64Alphabet alphabet)
        where TChar : unmanaged, IBinaryInteger<TChar>
        where TDecoder : IBase64Decoder<TChar>
    {
        ArgumentNullException.ThrowIfNull(typeInfo);
        var decoder = new Base64TextDecoder(alphabet);
        var capacity = Base64TextDecoder.MaxDecodedLength(base64.Length);
        var buffer = ArrayPool<byte>.Shared.Rent(capacity);
        var used = capacity;
        try
        {
            // The same decoder as the streaming path, so that a span and a stream of the same text always agree.
            if (!decoder.TryDecode<TChar, TDecoder>(base64, buffer, out var written, out var error)
                || !decoder.TryFinish(buffer.AsSpan(written), out var tail, out error))
            {
                return Result<T>.Failure(error);
            }

            used = written + tail;
            return JsonText.IndexOfInvalidUtf8(buffer.AsSpan(0, used)) is >= 0 and var invalid
                ? Result<T>.Failure(JsonText.NotUtf8Error(invalid, itemIndex: null, "$"))
                : JsonBinding<T>.Bind(buffer.AsSpan(0, used), typeInfo, itemIndex: null, 0, "$");
        }
        finally
        {
            // The payload may be a token or personal data: never hand it to the next renter.
            buffer.AsSpan(0, used).Clear();
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}

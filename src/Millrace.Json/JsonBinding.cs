using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace Millrace.Json;

/// <summary>Binds one complete JSON value to <typeparamref name="T"/>, turning binding exceptions into located errors.</summary>
/// <typeparam name="T">The target type.</typeparam>
internal static class JsonBinding<T>
{
    /// <summary>Binds one complete JSON value held in memory.</summary>
    /// <param name="json">One complete JSON value.</param>
    /// <param name="typeInfo">How to bind it.</param>
    /// <param name="itemIndex">The item's index in its sequence, when there is one.</param>
    /// <param name="baseOffset">The offset of <paramref name="json"/>'s first byte in the whole input.</param>
    /// <param name="rootPath">The path the value is under, such as <c>$</c>; <c>[index]</c> and member paths are appended to it.</param>
    /// <returns>The value, or a <see cref="JsonErrorCodes.Bind"/> or <see cref="JsonErrorCodes.NullItem"/> failure.</returns>
    public static Result<T> Bind(ReadOnlySpan<byte> json, JsonTypeInfo<T> typeInfo, long? itemIndex, long baseOffset, string rootPath)
    {
        T? value;
        try
        {
            value = JsonSerializer.Deserialize(json, typeInfo);
        }
        catch (JsonException exception)
        {
            var position = exception is { LineNumber: { } line, BytePositionInLine: { } column } ? JsonText.OffsetOf(json, line, column) : 0;
            if (IsMalformed(exception))
            {
                var token = OffendingToken(json, typeInfo.Options, (int)position);
                return Failure(exception, baseOffset + token, itemIndex, rootPath, JsonMessages.Malformed(json, token, position));
            }

            return Failure(exception, baseOffset + TokenStartBefore(json, position), itemIndex, rootPath);
        }
        catch (NotSupportedException exception)
        {
            return Failure(exception, baseOffset, itemIndex, rootPath);
        }
        catch (Exception exception) when (exception is InvalidOperationException or ArgumentException)
        {
            // What the serializer lets through its tokenizer and then throws the platform's exception for, not its own:
            // a string escaping an unpaired surrogate (\ud800) read into a .NET string, a repeated name in a JsonObject.
            return Failure(exception, baseOffset, itemIndex, rootPath);
        }

        return Complete(value, itemIndex, baseOffset, rootPath);
    }

    /// <summary>Turns a bound value into a result: <see langword="null"/> fails for reference types.</summary>
    /// <param name="value">The bound value.</param>
    /// <param name="itemIndex">The item's index in its sequence, when there is one.</param>
    /// <param name="offset">The offset of the value's first byte.</param>
    /// <param name="rootPath">The path the value is under.</param>
    /// <returns>The value, or a <see cref="JsonErrorCodes.NullItem"/> failure.</returns>
    public static Result<T> Complete(T? value, long? itemIndex, long offset, string rootPath)
    {
        if (value is null && !typeof(T).IsValueType)
        {
            return new Error(JsonErrorCodes.NullItem, $"The value is null, which {typeof(T).Name} cannot hold.")
            {
                ItemIndex = itemIndex,
                ByteOffset = offset,
                Path = PathOf(rootPath, itemIndex),
            };
        }

        return Result<T>.Success(value!);
    }

    /// <summary>
    /// Builds the error for an exception thrown while binding, telling malformed JSON (<see cref="JsonErrorCodes.Syntax"/>)
    /// from values that do not fit the type (<see cref="JsonErrorCodes.Bind"/>).
    /// </summary>
    /// <param name="exception">What the serializer threw.</param>
    /// <param name="offset">Where the problem is, when known.</param>
    /// <param name="itemIndex">The item's index in its sequence, when there is one.</param>
    /// <param name="rootPath">The path the value is under; the item index and the exception's member path are appended.</param>
    /// <param name="message">The message, when the caller can say it better than the serializer.</param>
    /// <returns>A located <see cref="JsonErrorCodes.Bind"/> or <see cref="JsonErrorCodes.Syntax"/> error.</returns>
    public static Error Failure(Exception exception, long? offset, long? itemIndex, string rootPath, string? message = null)
    {
        var jsonException = exception as JsonException;
        var code = jsonException is not null && IsMalformed(jsonException) ? JsonErrorCodes.Syntax : JsonErrorCodes.Bind;
        var path = PathOf(rootPath, itemIndex);
        var memberPath = jsonException?.Path is { Length: > 1 } inner ? path + inner[1..] : path;
        message ??= code == JsonErrorCodes.Syntax ? "The JSON is malformed." : JsonMessages.Binding(exception.Message);
        return new Error(code, message)
        {
            ItemIndex = itemIndex,
            ByteOffset = offset,
            Path = memberPath,
            Exception = exception,
        };
    }

    /// <summary>
    /// Binds the container item that starts <paramref name="candidate"/> in a single pass, straight through the type's
    /// converter, and measures it. Any failure, including an item cut off by the end of the buffer, returns
    /// <see langword="false"/> so that the item is scanned and bound the careful way, which reports it exactly.
    /// </summary>
    /// <param name="candidate">The buffered bytes from the item's first byte on.</param>
    /// <param name="converter">The converter of the item type.</param>
    /// <param name="serializerOptions">The options the converter belongs to.</param>
    /// <param name="itemReaderOptions">Reader options with the item's depth limit.</param>
    /// <param name="value">The bound value.</param>
    /// <param name="length">The item's length in bytes.</param>
    /// <returns><see langword="true"/> when the item was bound.</returns>
    [SuppressMessage("Design", "CA1031:Do not catch general exception types", Justification = "Whatever fails here is retried on the careful path, which reports or rethrows it.")]
    public static bool TryBindInOnePass(ReadOnlySpan<byte> candidate, JsonConverter<T> converter, JsonSerializerOptions serializerOptions, JsonReaderOptions itemReaderOptions, out T? value, out int length)
    {
        var reader = new Utf8JsonReader(candidate, itemReaderOptions);
        try
        {
            reader.Read();
            value = converter.Read(ref reader, typeof(T), serializerOptions);
            length = (int)reader.BytesConsumed;
            return true;
        }
        catch (Exception)
        {
            value = default;
            length = 0;
            return false;
        }
    }

    /// <summary>
    /// Builds the binding error for an item whose first byte already shows it cannot bind, without running the
    /// serializer into an exception: an array or a primitive where an object is read, an object or a primitive where
    /// a collection is.
    /// </summary>
    /// <param name="message">What is wrong, from <see cref="MismatchMessage"/>.</param>
    /// <param name="itemIndex">The item's index.</param>
    /// <param name="offset">The item's offset.</param>
    /// <param name="rootPath">The path the item is under.</param>
    /// <returns>A <see cref="JsonErrorCodes.Bind"/> error.</returns>
    public static Error Mismatch(string message, long itemIndex, long offset, string rootPath) => new(JsonErrorCodes.Bind, message)
    {
        ItemIndex = itemIndex,
        ByteOffset = offset,
        Path = PathOf(rootPath, itemIndex),
    };

    /// <summary>
    /// Gets the byte every item of <paramref name="typeInfo"/>'s type starts with (<c>{</c> or <c>[</c>), or 0 when
    /// the type does not say: custom converters and primitives read what they like, and collections read objects when
    /// references are preserved.
    /// </summary>
    /// <param name="typeInfo">The item type's information.</param>
    /// <returns>The opening byte, or 0.</returns>
    public static byte ExpectedFirstByte(JsonTypeInfo<T> typeInfo) => typeInfo.Kind switch
    {
        JsonTypeInfoKind.Object or JsonTypeInfoKind.Dictionary => (byte)'{',
        JsonTypeInfoKind.Enumerable when typeInfo.Options.ReferenceHandler is null => (byte)'[',
        _ => 0,
    };

    /// <summary>Describes an item that starts with <paramref name="first"/> where <paramref name="expected"/> was needed.</summary>
    /// <param name="first">The item's first byte.</param>
    /// <param name="expected">What <see cref="ExpectedFirstByte"/> returned.</param>
    /// <returns>The message.</returns>
    public static string MismatchMessage(byte first, byte expected) =>
        $"The value is {Kind(first)}, which cannot be converted to {JsonMessages.Binding(typeof(T).ToString())}: it is read from {Kind(expected)}.";

    private static string Kind(byte first) => first switch
    {
        (byte)'{' => "an object",
        (byte)'[' => "an array",
        (byte)'"' => "a string",
        (byte)'t' or (byte)'f' => "a boolean",
        _ => "a number",
    };

    // System.Text.Json reports malformed JSON with its reader's own JsonException subclass, directly or as the inner
    // exception of the one it rethrows with a path; values that do not fit the type get a plain JsonException.
    private static bool IsMalformed(JsonException exception) =>
        exception.GetType() != typeof(JsonException) || exception.InnerException is JsonException;

    /// <summary>Where the token that the serializer's reader failed on starts, found by reading to the same failure.</summary>
    private static int OffendingToken(ReadOnlySpan<byte> json, JsonSerializerOptions options, int position)
    {
        var reader = new Utf8JsonReader(json, new JsonReaderOptions
        {
            AllowTrailingCommas = options.AllowTrailingCommas,
            CommentHandling = options.ReadCommentHandling,
            MaxDepth = options.MaxDepth,
        });
        try
        {
            while (reader.Read())
            {
            }
        }
        catch (JsonException)
        {
            return JsonMessages.OffendingToken(json, (int)reader.BytesConsumed, position);
        }

        // The serializer failed past the end of the value (trailing content): its own position is the offending byte.
        return position;
    }

    private static string PathOf(string rootPath, long? itemIndex) => itemIndex is { } index ? ErrorPath.Element(rootPath, index) : rootPath;

    /// <summary>
    /// System.Text.Json reports a binding error where its reader stopped, just after the offending token; find
    /// where that token starts, so the offset points at the value itself.
    /// </summary>
    private static long TokenStartBefore(ReadOnlySpan<byte> json, long end)
    {
        var reader = new Utf8JsonReader(json);
        try
        {
            while (reader.Read() && reader.BytesConsumed <= end)
            {
                if (reader.BytesConsumed == end)
                {
                    return reader.TokenStartIndex;
                }
            }
        }
        catch (JsonException)
        {
            // Malformed JSON reports its own position; keep the serializer's.
        }

        return end;
    }
}

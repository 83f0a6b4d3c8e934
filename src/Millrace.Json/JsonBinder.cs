using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace Millrace.Json;

/// <summary>Binds one complete JSON value to <typeparamref name="T"/>, turning binding exceptions into located errors.</summary>
/// <typeparam name="T">The target type.</typeparam>
internal static class JsonBinder<T>
{
    /// <summary>Binds one complete JSON value held in memory.</summary>
    /// <param name="json">One complete JSON value.</param>
    /// <param name="typeInfo">How to bind it.</param>
    /// <param name="itemIndex">The item's index in its sequence, when there is one.</param>
    /// <param name="baseOffset">The offset of <paramref name="json"/>'s first byte in the whole input.</param>
    /// <param name="path">The path of the value, such as <c>$[3]</c>; member paths are appended to it.</param>
    /// <returns>The value, or a <see cref="JsonErrorCodes.Bind"/> or <see cref="JsonErrorCodes.NullItem"/> failure.</returns>
    public static Result<T> Bind(ReadOnlySpan<byte> json, JsonTypeInfo<T> typeInfo, long? itemIndex, long baseOffset, string path)
    {
        T? value;
        try
        {
            value = JsonSerializer.Deserialize(json, typeInfo);
        }
        catch (JsonException exception)
        {
            var offset = exception is { LineNumber: { } line, BytePositionInLine: { } column }
                ? TokenStartBefore(json, OffsetOf(json, line, column))
                : 0;
            return Failure(exception, baseOffset + offset, itemIndex, path);
        }
        catch (NotSupportedException exception)
        {
            return Failure(exception, baseOffset, itemIndex, path);
        }

        return Complete(value, itemIndex, baseOffset, path);
    }

    /// <summary>Turns a bound value into a result: <see langword="null"/> fails for reference types.</summary>
    /// <param name="value">The bound value.</param>
    /// <param name="itemIndex">The item's index in its sequence, when there is one.</param>
    /// <param name="offset">The offset of the value's first byte.</param>
    /// <param name="path">The value's path.</param>
    /// <returns>The value, or a <see cref="JsonErrorCodes.NullItem"/> failure.</returns>
    public static Result<T> Complete(T? value, long? itemIndex, long offset, string path)
    {
        if (value is null && !typeof(T).IsValueType)
        {
            return new Error(JsonErrorCodes.NullItem, $"The value is null, which {typeof(T).Name} cannot hold.")
            {
                ItemIndex = itemIndex,
                ByteOffset = offset,
                Path = path,
            };
        }

        return Result<T>.Success(value!);
    }

    /// <summary>
    /// Builds the error for an exception thrown while binding. System.Text.Json reports malformed JSON with its
    /// reader's own <see cref="JsonException"/> subclass, directly or as the inner exception of the one it rethrows
    /// with a path, and values that do not fit the type with a plain <see cref="JsonException"/>; that is how syntax
    /// and binding errors are told apart.
    /// </summary>
    /// <param name="exception">What the serializer threw.</param>
    /// <param name="offset">Where the problem is, when known.</param>
    /// <param name="itemIndex">The item's index in its sequence, when there is one.</param>
    /// <param name="path">The value's path; the exception's member path is appended.</param>
    /// <returns>A located <see cref="JsonErrorCodes.Bind"/> or <see cref="JsonErrorCodes.Syntax"/> error.</returns>
    public static Error Failure(Exception exception, long? offset, long? itemIndex, string path)
    {
        var jsonException = exception as JsonException;
        var code = jsonException is not null && (jsonException.GetType() != typeof(JsonException) || jsonException.InnerException is JsonException)
            ? JsonErrorCodes.Syntax
            : JsonErrorCodes.Bind;
        var memberPath = jsonException?.Path is { Length: > 1 } inner ? path + inner[1..] : path;
        var message = exception.Message;
        var cut = message.IndexOf(" Path:", StringComparison.Ordinal);
        return new Error(code, cut > 0 ? message[..cut] : message)
        {
            ItemIndex = itemIndex,
            ByteOffset = offset,
            Path = memberPath,
            Exception = exception,
        };
    }

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

    /// <summary>Converts System.Text.Json's line and byte-in-line position into an offset within <paramref name="json"/>.</summary>
    private static long OffsetOf(ReadOnlySpan<byte> json, long line, long column)
    {
        var lineStart = 0;
        for (var i = 0L; i < line; i++)
        {
            var next = json[lineStart..].IndexOf((byte)'\n');
            if (next < 0)
            {
                break;
            }

            lineStart += next + 1;
        }

        return Math.Min(lineStart + column, json.Length);
    }
}

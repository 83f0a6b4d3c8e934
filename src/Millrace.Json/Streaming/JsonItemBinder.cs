using System.Text.Json.Serialization.Metadata;

namespace Millrace.Json.Streaming;

/// <summary>
/// Binds one item whose bytes have been found, for the item-by-item reader and for the binding workers alike: an item
/// whose first byte already shows it cannot bind fails without an exception, any other is bound by the serializer.
/// Safe to share between threads.
/// </summary>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class JsonItemBinder<T>(JsonTypeInfo<T> typeInfo, string rootPath)
{
    private readonly byte _expectedFirstByte = JsonBinding<T>.ExpectedFirstByte(typeInfo);

    // One message per kind of item, so that a feed of mismatched items allocates only their errors. Two threads may
    // both build a message; either is the same text.
    private readonly string?[] _mismatchMessages = new string?[128];

    /// <summary>Binds an item.</summary>
    /// <param name="item">The item's bytes, exactly.</param>
    /// <param name="index">Its index.</param>
    /// <param name="offset">The stream offset of its first byte.</param>
    /// <returns>The value or the error.</returns>
    public Result<T> Bind(ReadOnlySpan<byte> item, long index, long offset) => IsMismatch(item[0])
        ? Result<T>.Failure(JsonBinding<T>.Mismatch(MismatchMessage(item[0]), index, offset, rootPath))
        : JsonBinding<T>.Bind(item, typeInfo, index, offset, rootPath);

    /// <summary>Whether the item's first byte already shows that it cannot bind; <c>null</c> is left to the binder.</summary>
    /// <param name="first">The item's first byte.</param>
    /// <returns><see langword="true"/> when the item cannot bind.</returns>
    public bool IsMismatch(byte first) => _expectedFirstByte != 0 && first != _expectedFirstByte && first != (byte)'n';

    private string MismatchMessage(byte first) =>
        _mismatchMessages[first & 0x7F] ??= JsonBinding<T>.MismatchMessage(first, _expectedFirstByte);
}

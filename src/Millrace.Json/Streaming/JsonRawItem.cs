namespace Millrace.Json.Streaming;

/// <summary>
/// One item of a JSON array or NDJSON stream as its UTF-8 bytes, found but not bound: what
/// <see cref="JsonItems.ReadRawAsync(Stream, JsonStreamOptions?, CancellationToken)"/> yields for counting, validating,
/// forwarding or binding elsewhere (on another thread, say) at the tokenizer's speed.
/// </summary>
/// <remarks>
/// <see cref="Utf8"/> is a view of the reader's buffer: it is valid until the enumerator moves to the next item. Copy it
/// (<c>Utf8.ToArray()</c>) to keep it longer.
/// </remarks>
public readonly struct JsonRawItem
{
    internal JsonRawItem(long index, long byteOffset, ReadOnlyMemory<byte> utf8)
    {
        Index = index;
        ByteOffset = byteOffset;
        Utf8 = utf8;
    }

    /// <summary>Gets the zero-based index of the item in the array (or of the line's value in NDJSON).</summary>
    public long Index { get; }

    /// <summary>Gets the offset of the item's first byte in the stream.</summary>
    public long ByteOffset { get; }

    /// <summary>Gets the item's bytes, from its first to its last, as they are in the input.</summary>
    public ReadOnlyMemory<byte> Utf8 { get; }
}

namespace Millrace.Nbt.Binary;

/// <summary>
/// The uncompressed bytes of an NBT input: the input itself, or its verified decompression in a pooled buffer that
/// <see cref="Dispose"/> returns. Errors a reader finds in decompressed bytes are told so by <see cref="ScopeOffset(NbtFormatException)"/>.
/// </summary>
internal ref struct NbtPayload
{
    private PooledBufferWriter? _owner;

    private NbtPayload(ReadOnlySpan<byte> bytes, NbtCompression compression, PooledBufferWriter? owner)
    {
        Bytes = bytes;
        Compression = compression;
        _owner = owner;
    }

    /// <summary>Gets the uncompressed bytes.</summary>
    public ReadOnlySpan<byte> Bytes { get; }

    /// <summary>Gets the compression the input was in.</summary>
    public NbtCompression Compression { get; }

    /// <summary>Detects the input's compression and decompresses it, verified and within <paramref name="maxBytes"/>.</summary>
    public static NbtPayload Open(ReadOnlySpan<byte> data, long maxBytes) => Open(data, NbtCompressionCodec.Detect(data), maxBytes);

    /// <summary>Decompresses an input whose compression is declared (a region chunk's), verified and within <paramref name="maxBytes"/>.</summary>
    public static NbtPayload Open(ReadOnlySpan<byte> data, NbtCompression compression, long maxBytes)
    {
        if (compression == NbtCompression.None)
        {
            return new NbtPayload(data, compression, null);
        }

        var inflated = NbtCompressionCodec.Decompress(data, compression, maxBytes);
        return new NbtPayload(inflated.WrittenSpan, compression, inflated);
    }

    /// <summary>Marks an error found in decompressed bytes as such; always <see langword="false"/>, for use as an exception filter.</summary>
    public readonly bool ScopeOffset(NbtFormatException exception) => ScopeOffset(Compression, exception);

    /// <summary>Marks an error found in bytes decompressed from <paramref name="compression"/> as such; always <see langword="false"/>, for use as an exception filter.</summary>
    public static bool ScopeOffset(NbtCompression compression, NbtFormatException exception)
    {
        if (compression != NbtCompression.None)
        {
            exception.SetOffsetScope(compression == NbtCompression.Gzip ? "of the gzip-decompressed data" : "of the zlib-decompressed data");
        }

        return false;
    }

    /// <summary>Returns the decompression buffer to the pool.</summary>
    public void Dispose()
    {
        _owner?.Dispose();
        _owner = null;
    }
}

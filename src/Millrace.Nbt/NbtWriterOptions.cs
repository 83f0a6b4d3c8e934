namespace Millrace.Nbt;

/// <summary>How to write NBT. Init-only, so one instance can be shared.</summary>
public sealed class NbtWriterOptions
{
    /// <summary>Gets options for uncompressed Java NBT.</summary>
    public static NbtWriterOptions Default { get; } = new();

    /// <summary>Gets the binary flavour.</summary>
    /// <value>Default <see cref="NbtFormat.Java"/>.</value>
    public NbtFormat Format { get; init; } = NbtFormat.Java;

    /// <summary>Gets the compression around the payload.</summary>
    /// <value>Default <see cref="NbtCompression.None"/>.</value>
    public NbtCompression Compression { get; init; } = NbtCompression.None;
}

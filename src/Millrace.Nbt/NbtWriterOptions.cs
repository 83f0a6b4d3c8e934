using Millrace.Nbt.Binary;

namespace Millrace.Nbt;

/// <summary>How to write NBT. Init-only, so one instance can be shared.</summary>
public sealed class NbtWriterOptions
{
    /// <summary>Gets options for uncompressed Java NBT.</summary>
    public static NbtWriterOptions Default { get; } = new();

    /// <summary>Gets the binary flavour.</summary>
    /// <value>Default <see cref="NbtFormat.Java"/>.</value>
    /// <exception cref="ArgumentOutOfRangeException">The value is not one of <see cref="NbtFormat"/>'s.</exception>
    public NbtFormat Format { get; init => field = NbtThrow.DefinedFormat(value, nameof(Format)); } = NbtFormat.Java;

    /// <summary>Gets the compression around the payload.</summary>
    /// <value>Default <see cref="NbtCompression.None"/>.</value>
    public NbtCompression Compression { get; init; } = NbtCompression.None;
}

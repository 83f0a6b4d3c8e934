using Millrace.Nbt.Binary;

namespace Millrace.Nbt;

/// <summary>
/// How to write NBT: an init-only record, so one instance can be shared and a variant is one expression.
/// <see cref="Validate"/> reports every invalid option at once, and every writer validates the options it is given.
/// </summary>
public sealed record NbtWriterOptions
{
    /// <summary>Gets options for uncompressed Java NBT.</summary>
    public static NbtWriterOptions Default { get; } = new();

    /// <summary>Gets the binary flavour.</summary>
    /// <value>Default <see cref="NbtFormat.Java"/>. One of <see cref="NbtFormat"/>'s values.</value>
    public NbtFormat Format { get; init; } = NbtFormat.Java;

    /// <summary>Gets the compression around the payload.</summary>
    /// <value>Default <see cref="NbtCompression.None"/>. One of <see cref="NbtCompression"/>'s values.</value>
    public NbtCompression Compression { get; init; } = NbtCompression.None;

    /// <summary>Checks every option and reports all the problems at once.</summary>
    /// <exception cref="ArgumentException">One or more options are invalid; the message lists each.</exception>
    public void Validate()
    {
        List<string>? problems = null;
        if (!NbtThrow.IsDefined(Format))
        {
            (problems ??= []).Add(OptionsValidation.Describe(nameof(Format), "is not an NBT flavour", Format));
        }

        if (Compression is not (NbtCompression.None or NbtCompression.Gzip or NbtCompression.Zlib))
        {
            (problems ??= []).Add(OptionsValidation.Describe(nameof(Compression), "is not a compression NBT files use", Compression));
        }

        if (problems is not null)
        {
            OptionsValidation.ThrowIfAny(problems, "Invalid NBT writer options:");
        }
    }
}

namespace Millrace.Nbt;

/// <summary>The documented defaults and limits of <see cref="NbtReaderOptions"/>.</summary>
public static class NbtReaderConstants
{
    /// <summary>The default nesting limit.</summary>
    /// <value>512, as Minecraft's.</value>
    public const int MaxDepth = 512;

    /// <summary>The default byte quota.</summary>
    /// <value>100 MiB, as Minecraft's accounter for files.</value>
    public const long MaxBytes = 100L * 1024 * 1024;

    /// <summary>The byte quota Minecraft uses for network payloads, to set where packets are read.</summary>
    /// <value>2 MiB.</value>
    public const long NetworkMaxBytes = 2L * 1024 * 1024;
}

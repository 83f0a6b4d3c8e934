namespace Millrace.Json.Streaming;

/// <summary>The default values of <see cref="JsonStreamOptions"/>, in one place.</summary>
public static class JsonStreamDefaults
{
    /// <summary>The default <see cref="JsonStreamOptions.MaxItemSize"/>: 16 MiB.</summary>
    public const int MaxItemSize = 16 * 1024 * 1024;

    /// <summary>The default <see cref="JsonStreamOptions.MaxDepth"/>: 64, as System.Text.Json.</summary>
    public const int MaxDepth = 64;

    /// <summary>The default <see cref="JsonStreamOptions.BufferSize"/>: 16 KiB.</summary>
    public const int BufferSize = 16 * 1024;

    /// <summary>The smallest allowed <see cref="JsonStreamOptions.BufferSize"/>.</summary>
    public const int MinBufferSize = 16;
}

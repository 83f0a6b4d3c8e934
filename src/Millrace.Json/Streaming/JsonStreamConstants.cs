namespace Millrace.Json.Streaming;

/// <summary>
/// The documented defaults and bounds of <see cref="JsonStreamOptions"/>, paired with it by name as each feature's
/// <c>…Constants</c> class is paired with its <c>…Options</c>.
/// </summary>
public static class JsonStreamConstants
{
    /// <summary>The default <see cref="JsonStreamOptions.MaxItemSize"/>: 16 MiB.</summary>
    public const int MaxItemSize = 16 * 1024 * 1024;

    /// <summary>The default <see cref="JsonStreamOptions.MaxDepth"/>: 64, as System.Text.Json.</summary>
    public const int MaxDepth = 64;

    /// <summary>The default <see cref="JsonStreamOptions.BufferSize"/>: 16 KiB.</summary>
    public const int BufferSize = 16 * 1024;

    /// <summary>The smallest allowed <see cref="JsonStreamOptions.BufferSize"/>.</summary>
    public const int MinBufferSize = 16;

    /// <summary>The default <see cref="JsonStreamOptions.BindingWorkers"/>: 1, items bound on the consuming thread.</summary>
    public const int BindingWorkers = 1;

    /// <summary>The largest allowed <see cref="JsonStreamOptions.BindingWorkers"/>.</summary>
    public const int MaxBindingWorkers = 256;
}

namespace Millrace.Compression;

/// <summary>How a bounded decompression ended.</summary>
public enum DecompressionStatus
{
    /// <summary>The whole input was one complete, verified stream.</summary>
    Done,

    /// <summary>The input ends before the compressed stream does.</summary>
    Truncated,

    /// <summary>The input is not a valid stream of the codec (including a wrong or missing dictionary).</summary>
    Corrupt,

    /// <summary>The stream inflated, but its checksum or length trailer does not match what it inflated to.</summary>
    ChecksumMismatch,

    /// <summary>Bytes follow the end of the compressed stream.</summary>
    TrailingBytes,

    /// <summary>The stream inflates past the output limit.</summary>
    TooLarge,
}

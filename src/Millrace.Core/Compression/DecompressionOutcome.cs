namespace Millrace.Compression;

/// <summary>
/// What <see cref="BoundedCompression.TryDecompress"/> found: done, or why not, where in the compressed input, and a
/// message in the user's terms that a format module wraps in its own located exception.
/// </summary>
/// <param name="Status">How the decompression ended.</param>
/// <param name="Offset">The offset in the compressed input the failure is reported at (its length when it ends early).</param>
/// <param name="Message">What went wrong, for a person; empty when done.</param>
public readonly record struct DecompressionOutcome(DecompressionStatus Status, long Offset, string Message)
{
    /// <summary>Gets a value indicating whether the input was one complete, verified stream.</summary>
    public bool IsDone => Status == DecompressionStatus.Done;
}

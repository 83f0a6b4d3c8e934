namespace Millrace.Parallel;

/// <summary>Describes an item that failed after its retries.</summary>
/// <param name="Index">The item's zero-based position in the source; for a batch, the position of its first item.</param>
/// <param name="Exception">The exception of its last attempt, or of its fallback.</param>
public readonly record struct ItemFailed(long Index, Exception Exception);

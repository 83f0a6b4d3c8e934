namespace Millrace.Parallel;

/// <summary>A source item that failed: its zero-based index and its final exception.</summary>
/// <param name="Index">The item's zero-based position in the source; for a batch, the position of its first item.</param>
/// <param name="Exception">The exception of its last attempt.</param>
public sealed record ParallelItemFailure(long Index, Exception Exception);

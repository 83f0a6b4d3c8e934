namespace Millrace.Parallel;

/// <summary>Describes an item that succeeded.</summary>
/// <param name="Index">The item's zero-based position in the source.</param>
/// <param name="Duration">How long it took, retries and backoff delays included.</param>
public readonly record struct ItemCompleted(long Index, TimeSpan Duration);

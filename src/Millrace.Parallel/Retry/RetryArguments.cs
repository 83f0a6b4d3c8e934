namespace Millrace.Parallel.Retry;

/// <summary>Describes a retry about to happen.</summary>
/// <param name="Index">The item's zero-based position in the source.</param>
/// <param name="Attempt">The retry number: 1 for the first retry.</param>
/// <param name="Delay">How long the item waits before it is tried again.</param>
/// <param name="Exception">The exception of the attempt that failed.</param>
public readonly record struct RetryArguments(long Index, int Attempt, TimeSpan Delay, Exception Exception);

namespace Millrace.Parallel.Progress;

/// <summary>A snapshot of a run's progress.</summary>
/// <param name="Started">Items started so far.</param>
/// <param name="Completed">Items that succeeded (a fallback value counts as success).</param>
/// <param name="Failed">Items that failed after their retries.</param>
/// <param name="Retries">Retries so far, across all items.</param>
/// <param name="Total">The number of source items, when known.</param>
/// <param name="Elapsed">Time since the run started.</param>
/// <param name="ItemsPerSecond">Finished items (completed and failed) per second since the run started.</param>
/// <param name="EstimatedRemaining">The time left at the current rate, when the total is known and the rate is not zero.</param>
/// <param name="IsFinal">Whether this is the report made when the run ended.</param>
public readonly record struct ParallelProgress(
    long Started,
    long Completed,
    long Failed,
    long Retries,
    long? Total,
    TimeSpan Elapsed,
    double ItemsPerSecond,
    TimeSpan? EstimatedRemaining,
    bool IsFinal)
{
    /// <summary>Gets the items in flight: started and not yet finished.</summary>
    public long InFlight => Started - Completed - Failed;
}

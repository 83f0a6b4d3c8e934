namespace Millrace.Parallel;

/// <summary>What an operator does when an item fails after its retries and fallback are exhausted.</summary>
public enum ErrorMode
{
    /// <summary>
    /// Stop starting items at the first failure, cancel the items in flight, and throw that failure once
    /// every worker has stopped.
    /// </summary>
    FailFast,

    /// <summary>
    /// Finish every item, then throw one <see cref="ParallelAggregateException"/> listing each failed
    /// item's index and exception.
    /// </summary>
    CollectAndContinue,

    /// <summary>
    /// Skip failed items: they are left out of the results and reported only through
    /// <see cref="ParallelHooks.OnError"/>, the metrics and the outcome operators.
    /// </summary>
    BestEffort,
}

namespace Millrace.Parallel;

/// <summary>
/// The documented defaults of <see cref="ParallelOperatorOptions"/>, paired with it by name as each feature's
/// <c>…Constants</c> class is paired with its <c>…Options</c>.
/// </summary>
public static class ParallelOperatorConstants
{
    /// <summary>How many input items an asynchronous source may be read ahead, per unit of parallelism.</summary>
    /// <value>2: a worker that finishes always finds its next item waiting, and the source is never read further ahead.</value>
    public const int InputBufferPerWorker = 2;

    /// <summary>How many results a stream may hold back, per unit of parallelism, while it waits for its consumer or for an earlier item.</summary>
    /// <value>4.</value>
    public const int OrderingWindowPerWorker = 4;

    /// <summary>The <see cref="ParallelOperatorOptions.MaxDegreeOfParallelism"/> that means no limit.</summary>
    /// <value>-1, as <c>ParallelOptions.MaxDegreeOfParallelism</c> of <c>Parallel.ForEachAsync</c>.</value>
    public const int Unlimited = -1;

    /// <summary>The error mode.</summary>
    /// <value><see cref="ErrorMode.FailFast"/>, as an exception thrown by a sequential loop would behave.</value>
    public const ErrorMode ErrorMode = Parallel.ErrorMode.FailFast;

    /// <summary>Gets the default maximum number of items processed at once.</summary>
    /// <value><see cref="Environment.ProcessorCount"/>, as <c>Parallel.ForEachAsync</c>; raise it for I/O-bound work.</value>
    public static int MaxDegreeOfParallelism => Environment.ProcessorCount;
}

namespace Millrace.Parallel;

/// <summary>The documented defaults of <see cref="ParallelOperatorOptions"/>.</summary>
public static class ParallelDefaults
{
    /// <summary>How many input items an asynchronous source may be read ahead, per unit of parallelism.</summary>
    /// <value>2: a worker that finishes always finds its next item waiting, and the source is never read further ahead.</value>
    public const int InputBufferPerWorker = 2;

    /// <summary>How many results a stream may hold back, per unit of parallelism, while it waits for its consumer or for an earlier item.</summary>
    /// <value>4.</value>
    public const int OrderingWindowPerWorker = 4;

    /// <summary>The error mode.</summary>
    /// <value><see cref="ErrorMode.FailFast"/>, as an exception thrown by a sequential loop would behave.</value>
    public const ErrorMode ErrorMode = Parallel.ErrorMode.FailFast;

    /// <summary>Gets the default maximum number of items processed at once.</summary>
    /// <value><see cref="Environment.ProcessorCount"/>, as <c>Parallel.ForEachAsync</c>; raise it for I/O-bound work.</value>
    public static int MaxDegreeOfParallelism => Environment.ProcessorCount;
}

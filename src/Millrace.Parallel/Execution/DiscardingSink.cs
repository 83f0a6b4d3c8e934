namespace Millrace.Parallel.Execution;

/// <summary>The sink of <c>ForEachParallelAsync</c>: items have no results to keep.</summary>
internal sealed class DiscardingSink<T> : ResultSink<T>
{
    public static DiscardingSink<T> Instance { get; } = new();

    public override void Accept(int worker, in ItemOutcome<T> outcome)
    {
    }
}

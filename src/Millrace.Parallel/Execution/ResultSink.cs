namespace Millrace.Parallel.Execution;

/// <summary>Where a run delivers the items that end: collected into a list, or streamed to a consumer.</summary>
internal abstract class ResultSink<T>
{
    /// <summary>Waits until the sink has room for one more item; a worker calls it before it takes an item.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>A task that completes when the room is reserved.</returns>
    public virtual ValueTask WaitForRoomAsync(CancellationToken cancellationToken) => default;

    /// <summary>Gives back room reserved for an item that never came (the source had ended).</summary>
    public virtual void ReturnRoom()
    {
    }

    /// <summary>Delivers an item that succeeded, or that failed when the caller asked for outcomes.</summary>
    /// <param name="worker">The number of the worker that ran it, below the run's worker limit: one worker's calls never overlap.</param>
    /// <param name="outcome">The item's outcome.</param>
    public abstract void Accept(int worker, in ItemOutcome<T> outcome);

    /// <summary>Records that an item ends without a result the caller sees, so an ordered sink moves past it.</summary>
    /// <param name="index">The item's index.</param>
    public virtual void Skip(long index)
    {
    }

    /// <summary>Called once when every worker has stopped.</summary>
    public virtual void Complete()
    {
    }
}

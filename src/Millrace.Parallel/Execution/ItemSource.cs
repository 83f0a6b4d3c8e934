namespace Millrace.Parallel.Execution;

/// <summary>Where a run's workers take their items from.</summary>
internal abstract class ItemSource<T>
{
    /// <summary>Gets the number of items, when the source knows it without enumerating.</summary>
    public abstract long? Count { get; }

    /// <summary>Starts reading ahead, if the source does.</summary>
    /// <param name="run">The run, told of read-ahead depth and of a failing source.</param>
    /// <param name="cancellationToken">Stops the reading.</param>
    public virtual void Start(IRunFeedback run, CancellationToken cancellationToken)
    {
    }

    /// <summary>Takes the next item, or <see cref="SourceItem{T}.End"/>.</summary>
    /// <param name="cancellationToken">Cancels a wait for the next item.</param>
    /// <returns>The item.</returns>
    public abstract ValueTask<SourceItem<T>> TakeAsync(CancellationToken cancellationToken);

    /// <summary>Stops reading and reports each item read but never started as cancelled.</summary>
    /// <returns>A task that completes when the source is released.</returns>
    public abstract ValueTask StopAsync();
}

/// <summary>What a source tells its run.</summary>
internal interface IRunFeedback
{
    /// <summary>The source threw; the run must fail with this exception.</summary>
    /// <param name="exception">The source's exception.</param>
    void OnSourceFault(Exception exception);

    /// <summary>An item was read but will never start.</summary>
    /// <param name="index">The item's index.</param>
    void OnUnstarted(long index);

    /// <summary>The read-ahead queue grew or shrank.</summary>
    /// <param name="delta">+1 or -1.</param>
    void OnQueueDepthChanged(int delta);
}

namespace Millrace.Cluster.Jobs;

/// <summary>
/// Does the work of one item on whichever silo leased it. Handlers cannot travel between machines: each is registered by
/// name on every silo (<see cref="Hosting.MillraceSiloBuilderExtensions.AddMillraceWorker{THandler}"/>) and a job names
/// its handler. An item runs at least once and may run again after its silo dies or its lease expires, so a handler must
/// be idempotent: running it twice leaves the same result as running it once (write outputs atomically, to the same place).
/// </summary>
public interface IWorkItemHandler
{
    /// <summary>Does the work of one item; throws to fail it (a <see cref="MillraceException"/> keeps its located error).</summary>
    /// <param name="item">The item.</param>
    /// <param name="cancellationToken">Cancelled when the attempt times out, the job is cancelled or the silo stops.</param>
    /// <returns>A task that completes when the item is done.</returns>
    ValueTask HandleAsync(WorkItem item, CancellationToken cancellationToken);
}

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

    /// <summary>
    /// Does the work of one item and returns what it found, recorded with the item's outcome
    /// (<see cref="JobItemOutcome.Result"/>) for the submitter to read: a small text such as a count or a JSON summary,
    /// at most <see cref="ClusterJobConstants.MaxResultLength"/> characters (a longer one fails the item), never the data
    /// itself. The workers call this; by default it runs <see cref="HandleAsync"/> and returns no result.
    /// </summary>
    /// <param name="item">The item.</param>
    /// <param name="cancellationToken">Cancelled when the attempt times out, the job is cancelled or the silo stops.</param>
    /// <returns>The result, or <see langword="null"/> for none.</returns>
    async ValueTask<string?> HandleWithResultAsync(WorkItem item, CancellationToken cancellationToken)
    {
        await HandleAsync(item, cancellationToken).ConfigureAwait(false);
        return null;
    }

    /// <summary>
    /// Decides whether a failed attempt is worth another, within the job's <see cref="ClusterJobOptions.Retry"/>.
    /// By default every failure is retried but a <see cref="MillraceException"/>, whose located error is in the data and
    /// would only fail again, and a cancellation (as Millrace.Parallel's retry does by default); a per-attempt timeout is
    /// retried.
    /// </summary>
    /// <param name="exception">What the attempt threw.</param>
    /// <returns><see langword="true"/> to retry.</returns>
    bool ShouldRetry(Exception exception) => exception is not (MillraceException or OperationCanceledException);

    /// <summary>
    /// Describes a failure in the terms the item's submitter knows, as the error recorded for the item. By default
    /// (<see langword="null"/>) a <see cref="MillraceException"/> keeps its located error and any other exception is
    /// recorded by its type and message.
    /// </summary>
    /// <param name="exception">What the item's last attempt threw.</param>
    /// <returns>The error to record, or <see langword="null"/> for the default.</returns>
    Error? DescribeFailure(Exception exception) => null;
}

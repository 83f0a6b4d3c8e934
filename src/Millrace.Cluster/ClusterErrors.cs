using Millrace.Cluster.Jobs;

namespace Millrace.Cluster;

/// <summary>Builds the errors a job records.</summary>
internal static class ClusterErrors
{
    /// <summary>
    /// The error recorded for an item whose attempts failed: the handler's description of it, else its own located error
    /// when it threw a <see cref="MillraceException"/>, else the exception's type and message. Either way without the exception itself,
    /// which cannot travel to other machines.
    /// </summary>
    /// <param name="failure">Millrace.Parallel's error for the item, holding its final exception.</param>
    /// <param name="index">The item's index in the job.</param>
    /// <param name="handler">The item's handler, which may describe the failure in its own terms first.</param>
    public static Error ForItem(Error failure, long index, IWorkItemHandler handler) => failure.Exception switch
    {
        { } described when handler.DescribeFailure(described) is { } error => error with { ItemIndex = index, Exception = null },
        MillraceException { Error: var error } => error with { ItemIndex = index, Exception = null },
        { } exception => new Error(ClusterErrorCodes.ItemFailed, $"{exception.GetType().Name}: {exception.Message}") { ItemIndex = index },
        null => failure with { ItemIndex = index },
    };
}

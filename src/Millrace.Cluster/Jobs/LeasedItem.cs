namespace Millrace.Cluster.Jobs;

/// <summary>One leased item.</summary>
/// <param name="Index">Its zero-based position in the job.</param>
/// <param name="Item">The item.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.leased-item")]
internal sealed record LeasedItem(long Index, WorkItem Item);

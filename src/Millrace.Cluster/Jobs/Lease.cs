namespace Millrace.Cluster.Jobs;

/// <summary>A lease: items of one partition handed to one silo until it completes them or the lease expires.</summary>
/// <param name="Id">The lease's identity, to renew and complete it.</param>
/// <param name="Items">The leased items with their indices in the job.</param>
/// <param name="Expires">When it expires unless renewed.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.lease")]
internal sealed record Lease(Guid Id, IReadOnlyList<LeasedItem> Items, DateTimeOffset Expires);

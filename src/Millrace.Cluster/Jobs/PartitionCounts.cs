namespace Millrace.Cluster.Jobs;

/// <summary>One partition's counts.</summary>
[GenerateSerializer]
[Immutable]
[Alias("millrace.partition-counts")]
internal sealed record PartitionCounts(int Total, int Leased, int Succeeded, int Failed, bool Cancelled, IReadOnlyDictionary<string, long> CompletedBySilo);

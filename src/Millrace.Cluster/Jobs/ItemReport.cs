namespace Millrace.Cluster.Jobs;

/// <summary>How one leased item ended, as its silo reports it.</summary>
/// <param name="Index">Its zero-based position in the job.</param>
/// <param name="Error">Why it failed, or <see langword="null"/> when it succeeded.</param>
/// <param name="Result">What its handler returned, if anything.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.item-report")]
internal sealed record ItemReport(long Index, Error? Error, string? Result = null);

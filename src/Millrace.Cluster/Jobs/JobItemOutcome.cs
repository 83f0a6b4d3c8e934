namespace Millrace.Cluster.Jobs;

/// <summary>
/// How one item of a job ended, recorded once: the first completion wins, and a later one (an item run again after its
/// lease expired) is dropped.
/// </summary>
/// <param name="Key">The item's key.</param>
/// <param name="Index">The item's zero-based position in the job.</param>
/// <param name="Error">Why it failed after its retries (a handler's located error is kept whole), or <see langword="null"/> when it succeeded.</param>
/// <param name="Silo">The silo that ran it.</param>
/// <param name="CompletedAt">When its outcome was recorded, by the clock of the silo that holds its partition.</param>
/// <param name="Result">What its handler returned (<see cref="IWorkItemHandler.HandleWithResultAsync"/>), or <see langword="null"/>.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.job-item-outcome")]
public sealed record JobItemOutcome(string Key, long Index, Error? Error, string Silo, DateTimeOffset CompletedAt, string? Result = null)
{
    /// <summary>Gets a value indicating whether the item succeeded.</summary>
    public bool Succeeded => Error is null;
}

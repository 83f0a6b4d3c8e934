namespace Millrace.Cluster.Jobs;

/// <summary>
/// One unit of a job's work: a key that names it (unique within the job) and a payload that tells the handler what to do,
/// such as the path of a file every silo can read. Payloads travel and are persisted with the job, so they are references
/// to data, not the data.
/// </summary>
/// <param name="Key">The item's name in outcomes and errors; unique within its job.</param>
/// <param name="Payload">What the handler needs, as text: a path, a URL, an id.</param>
[GenerateSerializer]
[Immutable]
[Alias("millrace.work-item")]
public sealed record WorkItem(string Key, string Payload);

namespace Millrace.Cluster.Hosting;

/// <summary>The names and documented defaults of a silo that runs Millrace work.</summary>
public static class ClusterHostingConstants
{
    /// <summary>
    /// The name of the grain storage provider jobs are persisted in. A silo must register one under this name: memory
    /// storage for tests (jobs die with the cluster), file storage for one machine, Redis for several.
    /// </summary>
    /// <value><c>millrace</c>.</value>
    public const string StorageName = "millrace";

    /// <summary>
    /// The key of the clock every wait of Millrace's cluster code takes (polls, lease renewals, retries' backoff, attempt
    /// timeouts, breaks, rate limits), as a keyed <see cref="TimeProvider"/> service: register one under this key to
    /// drive them from a test. Keyed because Orleans takes the silo's unkeyed <see cref="TimeProvider"/> for its own
    /// timers and membership, which a test's clock must leave alone. <see cref="MillraceSiloBuilderExtensions.AddMillraceWorker{THandler}"/>
    /// registers <see cref="TimeProvider.System"/> under it unless one is.
    /// </summary>
    /// <value><c>millrace</c>.</value>
    public const string TimeProviderKey = "millrace";

    /// <summary>How long an idle worker waits before it asks for work again.</summary>
    /// <value>250 milliseconds.</value>
    public static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(250);

    /// <summary>The default number of items a silo runs at once.</summary>
    /// <value><see cref="Environment.ProcessorCount"/>.</value>
    public static int MaxDegreeOfParallelism => Environment.ProcessorCount;
}

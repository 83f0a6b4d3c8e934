using Millrace.Parallel;
using Millrace.Parallel.Retry;

namespace Millrace.Cluster.Jobs;

/// <summary>
/// How a cluster job runs its items: lease size and timeout, and the per-item retries and timeout each silo applies through
/// Millrace.Parallel. Only data: the options travel with the job and are persisted with it, so they hold no delegates.
/// Defaults are in <see cref="ClusterJobConstants"/>; <see cref="Validate"/> reports every invalid option at once.
/// </summary>
[GenerateSerializer]
[Immutable]
[Alias("millrace.cluster-job-options")]
public sealed record ClusterJobOptions
{
    /// <summary>Gets the options a job gets when it is given none.</summary>
    public static ClusterJobOptions Default { get; } = new();

    /// <summary>Gets how many items a silo leases at once.</summary>
    /// <value>Default <see cref="ClusterJobConstants.LeaseSize"/>. 1 to 1,024.</value>
    [Id(0)]
    public int LeaseSize { get; init; } = ClusterJobConstants.LeaseSize;

    /// <summary>Gets how long a lease lasts unless its silo renews it; then its unfinished items go back to the pool.</summary>
    /// <value>Default <see cref="ClusterJobConstants.LeaseTimeout"/>. At least 1 second.</value>
    [Id(1)]
    public TimeSpan LeaseTimeout { get; init; } = ClusterJobConstants.LeaseTimeout;

    /// <summary>Gets how many times a failed item is retried on the silo that leased it before its failure is recorded.</summary>
    /// <value>Default <see cref="ClusterJobConstants.MaxRetryAttempts"/>. 0 to 100.</value>
    [Id(2)]
    public int MaxRetryAttempts { get; init; } = ClusterJobConstants.MaxRetryAttempts;

    /// <summary>Gets the delay before the first retry.</summary>
    /// <value>Default <see cref="ClusterJobConstants.RetryDelay"/>. Zero or positive.</value>
    [Id(3)]
    public TimeSpan RetryDelay { get; init; } = ClusterJobConstants.RetryDelay;

    /// <summary>Gets how the delay grows between retries.</summary>
    /// <value>Default <see cref="BackoffType.ExponentialJitter"/>.</value>
    [Id(4)]
    public BackoffType BackoffType { get; init; } = BackoffType.ExponentialJitter;

    /// <summary>Gets how long one attempt at an item may take before it is cancelled and fails with a timeout.</summary>
    /// <value>Default <see langword="null"/>: no timeout. Positive.</value>
    [Id(5)]
    public TimeSpan? PerAttemptTimeout { get; init; }

    /// <summary>Gets the rate every silo's attempts share, across jobs that name the same limit.</summary>
    /// <value>Default <see langword="null"/>: no rate limit.</value>
    [Id(6)]
    public ClusterRateLimitOptions? RateLimit { get; init; }

    /// <summary>Gets the circuit breaker every silo's calls share, with a local one on each silo.</summary>
    /// <value>Default <see langword="null"/>: no breaker.</value>
    [Id(7)]
    public ClusterCircuitBreakerOptions? CircuitBreaker { get; init; }

    /// <summary>
    /// Gets what the job does when an item fails after its retries. <see cref="ErrorMode.FailFast"/>: the first failure
    /// recorded stops the job as a cancel does: no item is leased or recorded after it, items running are cancelled at
    /// their lease's next renewal (a third of <see cref="LeaseTimeout"/>), and the job ends
    /// <see cref="ClusterJobState.Failed"/> with the outcomes recorded so far (also when its failure came among its last
    /// outcomes). <see cref="ErrorMode.CollectAndContinue"/> and <see cref="ErrorMode.BestEffort"/> both record each
    /// failure and go on: a job throws nothing at its end, its outcomes are its report.
    /// </summary>
    /// <value>Default <see cref="ErrorMode.CollectAndContinue"/>.</value>
    [Id(8)]
    public ErrorMode ErrorMode { get; init; } = ErrorMode.CollectAndContinue;

    /// <summary>Checks every option and reports all the problems at once.</summary>
    /// <exception cref="ArgumentException">One or more options are invalid; the message lists each.</exception>
    public void Validate()
    {
        var problems = new List<string>();
        if (LeaseSize is < 1 or > ClusterJobConstants.PartitionSize)
        {
            problems.Add($"LeaseSize is {LeaseSize}; it must be from 1 to {ClusterJobConstants.PartitionSize}.");
        }

        if (LeaseTimeout < TimeSpan.FromSeconds(1))
        {
            problems.Add($"LeaseTimeout is {LeaseTimeout}; it must be at least 1 second.");
        }

        if (MaxRetryAttempts is < 0 or > 100)
        {
            problems.Add($"MaxRetryAttempts is {MaxRetryAttempts}; it must be from 0 to 100.");
        }

        if (RetryDelay < TimeSpan.Zero)
        {
            problems.Add($"RetryDelay is {RetryDelay}; it must not be negative.");
        }

        if (!Enum.IsDefined(BackoffType))
        {
            problems.Add($"BackoffType is {(int)BackoffType}, which is not a BackoffType.");
        }

        if (PerAttemptTimeout is { } timeout && timeout <= TimeSpan.Zero)
        {
            problems.Add($"PerAttemptTimeout is {timeout}; it must be positive.");
        }

        if (!Enum.IsDefined(ErrorMode))
        {
            problems.Add($"ErrorMode is {(int)ErrorMode}, which is not an ErrorMode.");
        }

        RateLimit?.Validate(problems);
        CircuitBreaker?.Validate(problems);
        if (problems.Count > 0)
        {
            throw new ArgumentException($"Invalid cluster job options: {string.Join(" ", problems)}");
        }
    }

    /// <summary>
    /// The Millrace.Parallel options a silo runs one lease's items with: all at once (the silo's own limit admitted them)
    /// and the job's retries. The per-attempt timeout, rate limit and breaker are applied inside each attempt by the worker.
    /// </summary>
    /// <param name="items">The lease's item count.</param>
    /// <param name="jobId">The job's name: the operation name Millrace.Parallel tags its instruments with, on every silo.</param>
    /// <param name="handler">The job's handler on this silo, which decides which failures are retried.</param>
    internal ParallelOperatorOptions ToParallelOptions(int items, string jobId, IWorkItemHandler handler) => new()
    {
        MaxDegreeOfParallelism = Math.Max(1, items),
        OperationName = jobId,
        Retry = MaxRetryAttempts == 0 ? null : new RetryOptions { MaxRetryAttempts = MaxRetryAttempts, Delay = RetryDelay, BackoffType = BackoffType, ShouldHandle = handler.ShouldRetry },
    };
}

using Millrace.Cluster.CircuitBreaker;
using Millrace.Cluster.RateLimit;
using Millrace.Parallel;
using Millrace.Parallel.Retry;

namespace Millrace.Cluster.Jobs;

/// <summary>
/// How a cluster job runs its items: lease size and timeout, and the resilience each silo applies to an item through
/// Millrace.Parallel's pipeline (retry, then the shared circuit breaker, the shared rate limit and the silo's slots, then
/// the attempt's timeout). The names, defaults and ranges of the options it shares with
/// <see cref="ParallelOperatorOptions"/> are Parallel's. Only data: the options travel with the job and are persisted
/// with it, so they hold no delegates. Defaults are in <see cref="ClusterJobConstants"/> and the features' constants;
/// <see cref="Validate"/> reports every invalid option at once.
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

    /// <summary>
    /// Gets the retries of a failed item on the silo that leased it, before its failure is recorded: Millrace.Parallel's
    /// options, with the same names, defaults and ranges. Which failures are retried is the handler's
    /// <see cref="IWorkItemHandler.ShouldRetry"/>, so <see cref="RetryOptions.ShouldHandle"/> and
    /// <see cref="RetryOptions.Randomizer"/>, which could not travel to the silos, must not be set.
    /// </summary>
    /// <value>Default: <see cref="RetryOptions"/>' defaults (<see cref="RetryConstants"/>). <see langword="null"/>: no retries.</value>
    [Id(9)]
    public RetryOptions? Retry { get; init; } = new();

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
    /// <value>Default <see cref="ClusterJobConstants.ErrorMode"/>.</value>
    [Id(8)]
    public ErrorMode ErrorMode { get; init; } = ClusterJobConstants.ErrorMode;

    /// <summary>Checks every option and reports all the problems at once.</summary>
    /// <exception cref="ArgumentException">One or more options are invalid; the message lists each.</exception>
    public void Validate()
    {
        var problems = new List<string>();
        if (LeaseSize is < 1 or > ClusterJobConstants.PartitionSize)
        {
            problems.Add(OptionsValidation.Describe(nameof(LeaseSize), $"must be from 1 to {ClusterJobConstants.PartitionSize}", LeaseSize));
        }

        if (LeaseTimeout < ClusterJobConstants.MinLeaseTimeout)
        {
            problems.Add(OptionsValidation.Describe(nameof(LeaseTimeout), "must be at least 1 second", LeaseTimeout));
        }

        if (Retry is { } retry)
        {
            retry.Validate(problems);
            if (retry.ShouldHandle is not null || retry.Randomizer is not null)
            {
                problems.Add("Retry.ShouldHandle and Retry.Randomizer cannot travel to the silos: a job's retry decision is its handler's IWorkItemHandler.ShouldRetry.");
            }
        }

        if (PerAttemptTimeout is { } timeout && timeout <= TimeSpan.Zero)
        {
            problems.Add(OptionsValidation.Describe(nameof(PerAttemptTimeout), "must be positive", timeout));
        }

        if (!Enum.IsDefined(ErrorMode))
        {
            problems.Add(OptionsValidation.Describe(nameof(ErrorMode), "is not a defined value", ErrorMode));
        }

        RateLimit?.Validate(problems);
        CircuitBreaker?.Validate(problems);
        OptionsValidation.ThrowIfAny(problems, "Invalid cluster job options:");
    }
}

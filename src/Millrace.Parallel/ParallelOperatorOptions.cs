using Millrace.Parallel.Adaptive;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Resilience;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel;

/// <summary>
/// How a parallel operator runs: its concurrency, ordering, error mode and the resilience features it
/// uses. A record whose properties are all init-only, so one instance can be shared by concurrent runs and a
/// variant is one expression (<c>options with { Ordered = true }</c>); every feature is off (<see langword="null"/>)
/// unless set, and a feature that is off costs nothing per item. Defaults are documented in <see cref="ParallelOperatorConstants"/>
/// and each feature's <c>…Constants</c> class; <see cref="Validate"/> reports every invalid option at once.
/// </summary>
public sealed record ParallelOperatorOptions
{
    /// <summary>Gets the options every operator uses when it is given none.</summary>
    public static ParallelOperatorOptions Default { get; } = new();

    /// <summary>Gets the maximum number of items processed at once.</summary>
    /// <value>
    /// Default: <see cref="ParallelOperatorConstants.MaxDegreeOfParallelism"/>. At least 1, or <see cref="ParallelOperatorConstants.Unlimited"/>
    /// (-1, as in <c>Parallel.ForEachAsync</c>) for no limit, the same as <see cref="int.MaxValue"/>. A run starts workers
    /// only as it takes items, so a large limit costs nothing for a short source.
    /// </value>
    public int MaxDegreeOfParallelism { get; init; } = ParallelOperatorConstants.MaxDegreeOfParallelism;

    /// <summary>
    /// Gets how many items of an asynchronous source may be read ahead of the workers. Synchronous sources
    /// are read by the workers themselves, one item at a time, and never ahead.
    /// </summary>
    /// <value>Default <see langword="null"/>: <see cref="ParallelOperatorConstants.InputBufferPerWorker"/> per worker.</value>
    public int? InputBufferSize { get; init; }

    /// <summary>Gets a value indicating whether results keep the order of their source items.</summary>
    /// <value>Default <see langword="false"/>: results arrive in completion order.</value>
    public bool Ordered { get; init; }

    /// <summary>
    /// Gets how many items a streaming operator may have between the oldest result its consumer has not
    /// read yet and the newest item it starts. It bounds the reorder buffer of an ordered stream (one slow
    /// item holds back at most this many results) and the results waiting for a slow consumer.
    /// </summary>
    /// <value>Default <see langword="null"/>: <see cref="ParallelOperatorConstants.OrderingWindowPerWorker"/> per worker.</value>
    public int? OrderingWindow { get; init; }

    /// <summary>
    /// Gets how long one attempt at an item may take before it is cancelled and fails with a <see cref="TimeoutException"/>.
    /// Each retry gets a fresh timeout, as a Polly timeout strategy placed inside a retry strategy does.
    /// </summary>
    /// <value>Default <see langword="null"/>: no timeout. Positive.</value>
    public TimeSpan? PerAttemptTimeout { get; init; }

    /// <summary>Gets what happens when an item fails.</summary>
    /// <value>Default: <see cref="ParallelOperatorConstants.ErrorMode"/>.</value>
    public ErrorMode ErrorMode { get; init; } = ParallelOperatorConstants.ErrorMode;

    /// <summary>Gets the retry policy for failed items.</summary>
    /// <value>Default <see langword="null"/>: no retries.</value>
    public RetryOptions? Retry { get; init; }

    /// <summary>Gets the circuit breaker shared by every item of a run; each run gets its own (see <see cref="SharedCircuitBreaker"/>).</summary>
    /// <value>Default <see langword="null"/>: no breaker.</value>
    public CircuitBreakerOptions? CircuitBreaker { get; init; }

    /// <summary>
    /// Gets a circuit breaker shared with other runs, so failures seen by one run open the circuit for all. Set this or
    /// <see cref="CircuitBreaker"/>, not both.
    /// </summary>
    /// <value>Default <see langword="null"/>: no shared breaker.</value>
    public SharedCircuitBreaker? SharedCircuitBreaker { get; init; }

    /// <summary>Gets the token-bucket rate limit that every attempt, retries included, must pass.</summary>
    /// <value>Default <see langword="null"/>: no rate limit.</value>
    public RateLimitOptions? RateLimit { get; init; }

    /// <summary>
    /// Gets the resilience pipeline every item runs through, built with <see cref="ResiliencePipelineBuilder"/>: for what
    /// the strategy options cannot express (several rate or concurrency limiters, gates in another order) or one pipeline
    /// shared by several runs. Set this or the strategy options (<see cref="Retry"/>,
    /// <see cref="RateLimit"/>, <see cref="CircuitBreaker"/>, <see cref="SharedCircuitBreaker"/>,
    /// <see cref="PerAttemptTimeout"/>), not both; those build a pipeline of their own for each run, in Polly's
    /// recommended order: retry, rate limit, circuit breaker, timeout.
    /// </summary>
    /// <value>Default <see langword="null"/>: the pipeline the strategy options describe.</value>
    public ResiliencePipeline? Pipeline { get; init; }

    /// <summary>Gets the adaptive concurrency controller; when set, it moves the limit between its minimum and maximum.</summary>
    /// <value>Default <see langword="null"/>: the fixed <see cref="MaxDegreeOfParallelism"/>.</value>
    public AdaptiveConcurrencyOptions? AdaptiveConcurrency { get; init; }

    /// <summary>Gets the periodic progress reports.</summary>
    /// <value>Default <see langword="null"/>: no reports.</value>
    public ProgressOptions? Progress { get; init; }

    /// <summary>Gets the callbacks invoked as items start, complete, fail, retry or the circuit changes state.</summary>
    /// <value>Default <see langword="null"/>: no callbacks.</value>
    public ParallelHooks? Hooks { get; init; }

    /// <summary>
    /// Gets a value indicating whether the run records the instruments of
    /// <see cref="Metrics.ParallelInstruments.MeterName"/>. Instruments nobody listens to cost one check per item.
    /// </summary>
    /// <value>Default <see langword="true"/>.</value>
    public bool Metrics { get; init; } = true;

    /// <summary>Gets the name recorded as the <c>millrace.parallel.operation</c> tag of every measurement.</summary>
    /// <value>Default <see langword="null"/>: the tag is <see cref="Metrics.ParallelInstruments.UnnamedOperation"/>.</value>
    public string? OperationName { get; init; }

    /// <summary>Gets the clock behind timeouts, backoff delays, the breaker, the rate limit and progress.</summary>
    /// <value>Default: <see cref="TimeProvider.System"/>. Tests pass a fake clock so nothing really sleeps.</value>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;

    // Saturating: a limit of int.MaxValue means "unbounded", not an overflow; the buffers behind these grow on demand.
    internal int EffectiveInputBufferSize => InputBufferSize ?? (int)Math.Min(int.MaxValue, (long)WorkerLimit * ParallelOperatorConstants.InputBufferPerWorker);

    internal int EffectiveOrderingWindow => OrderingWindow ?? (int)Math.Min(int.MaxValue, (long)WorkerLimit * ParallelOperatorConstants.OrderingWindowPerWorker);

    /// <summary>Gets the most workers a run can use: the adaptive maximum when adaptive concurrency is on.</summary>
    internal int WorkerLimit => AdaptiveConcurrency?.MaxLimit ?? (MaxDegreeOfParallelism == ParallelOperatorConstants.Unlimited ? int.MaxValue : MaxDegreeOfParallelism);

    /// <summary>Checks every option and reports all the problems at once.</summary>
    /// <exception cref="ArgumentException">One or more options are invalid; the message lists each.</exception>
    public void Validate()
    {
        var errors = new List<string>();
        if (MaxDegreeOfParallelism is < 1 and not ParallelOperatorConstants.Unlimited)
        {
            errors.Add(OptionsValidation.Describe(nameof(MaxDegreeOfParallelism), "must be at least 1, or -1 for no limit", MaxDegreeOfParallelism));
        }

        if (InputBufferSize is < 1)
        {
            errors.Add(OptionsValidation.Describe(nameof(InputBufferSize), "must be at least 1", InputBufferSize));
        }

        if (OrderingWindow is < 1)
        {
            errors.Add(OptionsValidation.Describe(nameof(OrderingWindow), "must be at least 1", OrderingWindow));
        }

        if (PerAttemptTimeout is { } timeout && timeout <= TimeSpan.Zero)
        {
            errors.Add(OptionsValidation.Describe(nameof(PerAttemptTimeout), "must be positive", timeout));
        }

        if (!Enum.IsDefined(ErrorMode))
        {
            errors.Add(OptionsValidation.Describe(nameof(ErrorMode), "is not a defined value", ErrorMode));
        }

        if (TimeProvider is null)
        {
            errors.Add($"{nameof(TimeProvider)} is required.");
        }

        if (CircuitBreaker is not null && SharedCircuitBreaker is not null)
        {
            errors.Add($"Set {nameof(CircuitBreaker)} or {nameof(SharedCircuitBreaker)}, not both.");
        }

        if (Pipeline is not null && (Retry is not null || RateLimit is not null || CircuitBreaker is not null || SharedCircuitBreaker is not null || PerAttemptTimeout is not null))
        {
            errors.Add($"Set {nameof(Pipeline)} or the strategy options ({nameof(Retry)}, {nameof(RateLimit)}, {nameof(CircuitBreaker)}, {nameof(SharedCircuitBreaker)}, {nameof(PerAttemptTimeout)}), not both.");
        }

        Retry?.Validate(errors);
        CircuitBreaker?.Validate(errors);
        RateLimit?.Validate(errors);
        AdaptiveConcurrency?.Validate(errors);
        Progress?.Validate(errors);
        OptionsValidation.ThrowIfAny(errors, InvalidHeading);
    }

    /// <summary>
    /// The pipeline a run's items go through: <see cref="Pipeline"/>, shared, or one of the run's own that the strategy
    /// options describe (its breaker and token bucket live as long as the run).
    /// </summary>
    /// <param name="owned">Whether the run made it, and so disposes what it made.</param>
    internal ResiliencePipeline PipelineForRun(out bool owned)
    {
        owned = Pipeline is null;
        if (Pipeline is { } shared)
        {
            return shared;
        }

        if (Retry is null && RateLimit is null && CircuitBreaker is null && SharedCircuitBreaker is null && PerAttemptTimeout is null)
        {
            return ResiliencePipeline.Empty;
        }

        var builder = new ResiliencePipelineBuilder { TimeProvider = TimeProvider };
        if (Retry is { } retry)
        {
            builder.AddRetry(retry);
        }

        if (RateLimit is { } rateLimit)
        {
            builder.AddRateLimiter(rateLimit);
        }

        if (SharedCircuitBreaker is { } sharedBreaker)
        {
            builder.AddCircuitBreaker(sharedBreaker);
        }
        else if (CircuitBreaker is { } breaker)
        {
            builder.AddCircuitBreaker(breaker);
        }

        if (PerAttemptTimeout is { } timeout)
        {
            builder.AddTimeout(timeout);
        }

        return builder.Build();
    }

    /// <summary>The first line of the message <see cref="Validate"/> throws.</summary>
    internal const string InvalidHeading = "Invalid parallel operator options:";

    /// <summary>
    /// Validates at every operator call. Not cached on the instance: a record's <c>with</c> copies its fields, so a
    /// cached "valid" flag would vouch for a copy whose changed properties were never checked. The check is a few
    /// comparisons per call, never per item.
    /// </summary>
    internal void EnsureValid() => Validate();
}

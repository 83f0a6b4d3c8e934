using System.Globalization;
using System.Text;
using Millrace.Parallel.Adaptive;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Progress;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel;

/// <summary>
/// How a parallel operator runs: its concurrency, ordering, error mode and the resilience features it
/// uses. Every property is init-only, so one instance can be shared by concurrent runs; every feature is
/// off (<see langword="null"/>) unless set, and a feature that is off costs nothing per item.
/// </summary>
public sealed class ParallelOperatorOptions
{
    /// <summary>Gets the options every operator uses when it is given none.</summary>
    public static ParallelOperatorOptions Default { get; } = new();

    /// <summary>Gets the maximum number of items processed at once.</summary>
    /// <value>
    /// Default: <see cref="ParallelDefaults.MaxDegreeOfParallelism"/>. Must be at least 1; <see cref="int.MaxValue"/> means
    /// no limit. A run starts workers only as it takes items, so a large limit costs nothing for a short source.
    /// </value>
    public int MaxDegreeOfParallelism { get; init; } = ParallelDefaults.MaxDegreeOfParallelism;

    /// <summary>
    /// Gets how many items of an asynchronous source may be read ahead of the workers. Synchronous sources
    /// are read by the workers themselves, one item at a time, and never ahead.
    /// </summary>
    /// <value>Default <see langword="null"/>: <see cref="ParallelDefaults.InputBufferPerWorker"/> per worker.</value>
    public int? InputBufferSize { get; init; }

    /// <summary>Gets a value indicating whether results keep the order of their source items.</summary>
    /// <value>Default <see langword="false"/>: results arrive in completion order.</value>
    public bool Ordered { get; init; }

    /// <summary>
    /// Gets how many items a streaming operator may have between the oldest result its consumer has not
    /// read yet and the newest item it starts. It bounds the reorder buffer of an ordered stream (one slow
    /// item holds back at most this many results) and the results waiting for a slow consumer.
    /// </summary>
    /// <value>Default <see langword="null"/>: <see cref="ParallelDefaults.OrderingWindowPerWorker"/> per worker.</value>
    public int? OrderingWindow { get; init; }

    /// <summary>Gets how long one attempt at an item may take before it is cancelled and fails with a <see cref="TimeoutException"/>.</summary>
    /// <value>Default <see langword="null"/>: no timeout.</value>
    public TimeSpan? PerItemTimeout { get; init; }

    /// <summary>Gets what happens when an item fails.</summary>
    /// <value>Default: <see cref="ParallelDefaults.ErrorMode"/>.</value>
    public ErrorMode ErrorMode { get; init; } = ParallelDefaults.ErrorMode;

    /// <summary>Gets the retry policy for failed items.</summary>
    /// <value>Default <see langword="null"/>: no retries.</value>
    public RetryOptions? Retry { get; init; }

    /// <summary>Gets the circuit breaker shared by every item of a run.</summary>
    /// <value>Default <see langword="null"/>: no breaker.</value>
    public CircuitBreakerOptions? CircuitBreaker { get; init; }

    /// <summary>Gets the token-bucket rate limit that every attempt, retries included, must pass.</summary>
    /// <value>Default <see langword="null"/>: no rate limit.</value>
    public RateLimitOptions? RateLimit { get; init; }

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

    private volatile bool _validated;

    // Saturating: a limit of int.MaxValue means "unbounded", not an overflow; the buffers behind these grow on demand.
    internal int EffectiveInputBufferSize => InputBufferSize ?? (int)Math.Min(int.MaxValue, (long)WorkerLimit * ParallelDefaults.InputBufferPerWorker);

    internal int EffectiveOrderingWindow => OrderingWindow ?? (int)Math.Min(int.MaxValue, (long)WorkerLimit * ParallelDefaults.OrderingWindowPerWorker);

    /// <summary>Gets the most workers a run can use: the adaptive maximum when adaptive concurrency is on.</summary>
    internal int WorkerLimit => AdaptiveConcurrency?.MaxLimit ?? MaxDegreeOfParallelism;

    /// <summary>Checks every option and reports all the problems at once.</summary>
    /// <exception cref="ArgumentException">One or more options are invalid; the message lists each.</exception>
    public void Validate()
    {
        var errors = new List<string>();
        if (MaxDegreeOfParallelism < 1)
        {
            errors.Add(Describe(nameof(MaxDegreeOfParallelism), "must be at least 1", MaxDegreeOfParallelism));
        }

        if (InputBufferSize is < 1)
        {
            errors.Add(Describe(nameof(InputBufferSize), "must be at least 1", InputBufferSize));
        }

        if (OrderingWindow is < 1)
        {
            errors.Add(Describe(nameof(OrderingWindow), "must be at least 1", OrderingWindow));
        }

        if (PerItemTimeout is { } timeout && timeout <= TimeSpan.Zero)
        {
            errors.Add(Describe(nameof(PerItemTimeout), "must be positive", timeout));
        }

        if (!Enum.IsDefined(ErrorMode))
        {
            errors.Add(Describe(nameof(ErrorMode), "is not a defined value", ErrorMode));
        }

        if (TimeProvider is null)
        {
            errors.Add($"{nameof(TimeProvider)} is required.");
        }

        Retry?.Validate(errors);
        CircuitBreaker?.Validate(errors);
        RateLimit?.Validate(errors);
        AdaptiveConcurrency?.Validate(errors);
        Progress?.Validate(errors);
        if (errors.Count > 0)
        {
            var message = new StringBuilder("Invalid parallel operator options:");
            foreach (var error in errors)
            {
                message.Append("\n- ").Append(error);
            }

            throw new ArgumentException(message.ToString());
        }
    }

    /// <summary>Validates once per instance: every property is init-only, so a valid instance stays valid.</summary>
    internal void EnsureValid()
    {
        if (!_validated)
        {
            Validate();
            _validated = true;
        }
    }

    internal static string Describe(string name, string rule, object? actual) =>
        string.Create(CultureInfo.InvariantCulture, $"{name} {rule} (was {actual}).");
}

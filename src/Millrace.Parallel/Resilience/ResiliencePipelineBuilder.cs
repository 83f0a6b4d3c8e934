using System.Threading.RateLimiting;
using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.RateLimit;
using Millrace.Parallel.Retry;
using Millrace.Parallel.Timeouts;

namespace Millrace.Parallel.Resilience;

/// <summary>
/// Builds a <see cref="ResiliencePipeline"/>, strategies added outermost first as with Polly v8's builder: at most one
/// retry, first; then any gates (rate limiters, concurrency limiters, circuit breakers) in the order each attempt should
/// pass them; then at most one attempt timeout, last. Another order is refused where it is added, because it would
/// change what the strategies mean (a timeout outside the retry would bound every attempt together, a gate outside it
/// would be passed once for all attempts). Options are validated by <see cref="Build"/>, every problem at once.
/// </summary>
public sealed class ResiliencePipelineBuilder
{
    private readonly List<string> _errors = [];
    private readonly List<Func<TimeProvider, AttemptGate>> _gates = [];
    private RetryOptions? _retry;
    private TimeSpan? _timeout;
    private int _stage;

    /// <summary>Gets or sets the clock of the pipeline's backoff delays, timeouts, breakers and token buckets.</summary>
    /// <value>Default <see cref="TimeProvider.System"/>. Tests pass a fake clock so nothing really sleeps.</value>
    public TimeProvider TimeProvider { get; set; } = TimeProvider.System;

    /// <summary>Adds the retry: a failed attempt runs again, through every strategy added after it, while <see cref="RetryOptions.ShouldHandle"/> says so.</summary>
    /// <param name="options">The retry's options.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="InvalidOperationException">A retry, a gate or a timeout was added already.</exception>
    public ResiliencePipelineBuilder AddRetry(RetryOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        Advance(Stage.Retry, "the retry comes first: it runs the gates and the timeout again for each attempt");
        options.Validate(_errors);
        _retry = options;
        return this;
    }

    /// <summary>
    /// Adds a rate limiter every attempt takes one permit from and holds until it ends. Any <see cref="RateLimiter"/>: one
    /// the caller shares between pipelines and runs (the pipeline never disposes it), a
    /// <see cref="ConcurrencyLimiter"/> to bound the attempts running, or one backed by other machines.
    /// </summary>
    /// <param name="limiter">The limiter.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="InvalidOperationException">A timeout was added already.</exception>
    public ResiliencePipelineBuilder AddRateLimiter(RateLimiter limiter)
    {
        ArgumentNullException.ThrowIfNull(limiter);
        return AddGate(_ => new RateLimiterGate(limiter, owned: false));
    }

    /// <summary>
    /// Adds the token bucket <paramref name="options"/> describe (on <see cref="TimeProvider"/>), or its
    /// <see cref="RateLimitOptions.Limiter"/> when set. A bucket made here is the pipeline's, shared by everything that runs through it.
    /// </summary>
    /// <param name="options">The rate limit.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="InvalidOperationException">A timeout was added already.</exception>
    public ResiliencePipelineBuilder AddRateLimiter(RateLimitOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate(_errors);
        return AddGate(time => options.Limiter is { } limiter
            ? new RateLimiterGate(limiter, owned: false)
            : new RateLimiterGate(new TokenBucketLimiter(options, time), owned: true));
    }

    /// <summary>Adds a limit of <paramref name="permitLimit"/> attempts running at once through this pipeline; the others wait their turn, oldest first.</summary>
    /// <param name="permitLimit">How many attempts may run at once: at least 1.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="InvalidOperationException">A timeout was added already.</exception>
    public ResiliencePipelineBuilder AddConcurrencyLimiter(int permitLimit)
    {
        if (permitLimit < 1)
        {
            _errors.Add(OptionsValidation.Describe("ConcurrencyLimiter.PermitLimit", "must be at least 1", permitLimit));
        }

        return AddGate(_ => new RateLimiterGate(
            new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = permitLimit, QueueLimit = int.MaxValue, QueueProcessingOrder = QueueProcessingOrder.OldestFirst }),
            owned: true));
    }

    /// <summary>Adds a circuit breaker of this pipeline's own, shared by everything that runs through it.</summary>
    /// <param name="options">How it opens, recovers, and what an attempt does while it is open.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="InvalidOperationException">A timeout was added already.</exception>
    public ResiliencePipelineBuilder AddCircuitBreaker(CircuitBreakerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate(_errors);
        return AddGate(time => new CircuitBreakerGate(new CircuitController(options, time), options.WhenOpen == CircuitOpenBehavior.Hold));
    }

    /// <summary>Adds a circuit breaker shared with other pipelines and runs (on its own clock).</summary>
    /// <param name="breaker">The breaker.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="InvalidOperationException">A timeout was added already.</exception>
    public ResiliencePipelineBuilder AddCircuitBreaker(SharedCircuitBreaker breaker)
    {
        ArgumentNullException.ThrowIfNull(breaker);
        return AddGate(_ => new CircuitBreakerGate(breaker.Controller, breaker.Controller.HoldsWhenOpen));
    }

    /// <summary>Adds the attempt timeout, innermost: each attempt's callback is cancelled after <paramref name="timeout"/> and fails with a <see cref="TimeoutException"/>.</summary>
    /// <param name="timeout">How long one attempt may take: positive.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="InvalidOperationException">A timeout was added already.</exception>
    public ResiliencePipelineBuilder AddTimeout(TimeSpan timeout)
    {
        Advance(Stage.Timeout, "the timeout comes last, so that it bounds one attempt and no gate's wait");
        if (timeout <= TimeSpan.Zero)
        {
            _errors.Add(OptionsValidation.Describe("Timeout", "must be positive", timeout));
        }

        _timeout = timeout;
        return this;
    }

    /// <summary>Builds the pipeline.</summary>
    /// <returns>The pipeline.</returns>
    /// <exception cref="ArgumentException">An option is invalid; the message lists each problem.</exception>
    public ResiliencePipeline Build()
    {
        var errors = new List<string>(_errors);
        if (TimeProvider is null)
        {
            errors.Add($"{nameof(TimeProvider)} is required.");
        }

        OptionsValidation.ThrowIfAny(errors, "Invalid resilience pipeline options:");
        var time = TimeProvider!;
        return new ResiliencePipeline(
            _retry is { MaxRetryAttempts: > 0 } retry ? new RetryStrategy(retry, time) : null,
            [.. _gates.Select(make => make(time))],
            _timeout is { } timeout ? new TimeoutStrategy(timeout, time) : null);
    }

    private ResiliencePipelineBuilder AddGate(Func<TimeProvider, AttemptGate> make)
    {
        Advance(Stage.Gates, "gates come after the retry and before the timeout: each attempt passes them, and their waits do not count against its time");
        _gates.Add(make);
        return this;
    }

    private void Advance(Stage stage, string rule)
    {
        if ((int)stage < _stage || (stage != Stage.Gates && (int)stage == _stage))
        {
            throw new InvalidOperationException($"A pipeline's strategies are added outermost first: {rule}.");
        }

        _stage = (int)stage;
    }

    private enum Stage
    {
        None,
        Retry,
        Gates,
        Timeout,
    }
}

namespace Millrace.Parallel.CircuitBreaker;

/// <summary>
/// A circuit breaker shared by everything that runs through its pipeline (a run's items, when a run builds it). It opens after <see cref="ConsecutiveFailures"/>
/// consecutive failed attempts, or, when <see cref="FailureRatio"/> is set, when the failed share of the
/// attempts in the last <see cref="SamplingDuration"/> reaches it (given <see cref="MinimumThroughput"/> attempts).
/// </summary>
public sealed record CircuitBreakerOptions
{
    /// <summary>Gets the number of consecutive failed attempts that opens the circuit, when <see cref="FailureRatio"/> is not set.</summary>
    /// <value>Default <see cref="CircuitBreakerConstants.ConsecutiveFailures"/>. At least 1.</value>
    public int ConsecutiveFailures { get; init; } = CircuitBreakerConstants.ConsecutiveFailures;

    /// <summary>Gets the failed share of sampled attempts that opens the circuit; it replaces the consecutive count.</summary>
    /// <value>Default <see langword="null"/>. Greater than 0 and at most 1.</value>
    public double? FailureRatio { get; init; }

    /// <summary>Gets the window over which the failure ratio is sampled.</summary>
    /// <value>Default <see cref="CircuitBreakerConstants.SamplingDuration"/>. Positive.</value>
    public TimeSpan SamplingDuration { get; init; } = CircuitBreakerConstants.SamplingDuration;

    /// <summary>Gets the attempts the window needs before the ratio can open the circuit.</summary>
    /// <value>Default <see cref="CircuitBreakerConstants.MinimumThroughput"/>. At least 1.</value>
    public int MinimumThroughput { get; init; } = CircuitBreakerConstants.MinimumThroughput;

    /// <summary>Gets how long the circuit stays open before it lets probes through.</summary>
    /// <value>Default <see cref="CircuitBreakerConstants.BreakDuration"/>. Positive.</value>
    public TimeSpan BreakDuration { get; init; } = CircuitBreakerConstants.BreakDuration;

    /// <summary>Gets how many probe attempts may run at once while half-open; one success closes the circuit, one failure reopens it.</summary>
    /// <value>Default <see cref="CircuitBreakerConstants.HalfOpenProbes"/>. At least 1.</value>
    public int HalfOpenProbes { get; init; } = CircuitBreakerConstants.HalfOpenProbes;

    /// <summary>Gets what an attempt does when the circuit does not let it through.</summary>
    /// <value>Default <see cref="CircuitOpenBehavior.Fail"/>.</value>
    public CircuitOpenBehavior WhenOpen { get; init; }

    /// <summary>Gets the test of whether a failure counts against the circuit.</summary>
    /// <value>Default <see langword="null"/>: every failure except cancellation.</value>
    public Func<Exception, bool>? ShouldHandle { get; init; }

    internal bool Counts(Exception exception) =>
        ShouldHandle is { } shouldHandle ? shouldHandle(exception) : exception is not OperationCanceledException;

    internal void Validate(List<string> errors)
    {
        if (ConsecutiveFailures < 1)
        {
            errors.Add(OptionsValidation.Describe("CircuitBreaker.ConsecutiveFailures", "must be at least 1", ConsecutiveFailures));
        }

        if (FailureRatio is { } ratio && !(ratio > 0 && ratio <= 1))
        {
            errors.Add(OptionsValidation.Describe("CircuitBreaker.FailureRatio", "must be greater than 0 and at most 1", ratio));
        }

        if (SamplingDuration <= TimeSpan.Zero)
        {
            errors.Add(OptionsValidation.Describe("CircuitBreaker.SamplingDuration", "must be positive", SamplingDuration));
        }

        if (MinimumThroughput < 1)
        {
            errors.Add(OptionsValidation.Describe("CircuitBreaker.MinimumThroughput", "must be at least 1", MinimumThroughput));
        }

        if (BreakDuration <= TimeSpan.Zero)
        {
            errors.Add(OptionsValidation.Describe("CircuitBreaker.BreakDuration", "must be positive", BreakDuration));
        }

        if (!Enum.IsDefined(WhenOpen))
        {
            errors.Add(OptionsValidation.Describe("CircuitBreaker.WhenOpen", "is not a defined value", WhenOpen));
        }

        if (HalfOpenProbes < 1)
        {
            errors.Add(OptionsValidation.Describe("CircuitBreaker.HalfOpenProbes", "must be at least 1", HalfOpenProbes));
        }
    }
}

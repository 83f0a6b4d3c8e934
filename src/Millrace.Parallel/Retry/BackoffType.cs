namespace Millrace.Parallel.Retry;

/// <summary>How the delay before a retry grows with the attempt number <c>n</c> (0 for the first retry).</summary>
public enum BackoffType
{
    /// <summary><c>base</c> every time.</summary>
    Constant,

    /// <summary><c>base × (n + 1)</c>.</summary>
    Linear,

    /// <summary><c>base × 2ⁿ</c>.</summary>
    Exponential,

    /// <summary>"Full jitter": a uniform random delay in <c>[0, min(max, base × 2ⁿ))</c>, which spreads retries of many items apart.</summary>
    ExponentialJitter,

    /// <summary>AWS's "decorrelated jitter": <c>min(max, random in [base, previous × 3))</c>, starting from <c>previous = base</c>.</summary>
    DecorrelatedJitter,
}

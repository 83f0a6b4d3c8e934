using Millrace.Parallel.Retry;

namespace Millrace.Cluster.Serialization;

/// <summary>
/// Millrace.Parallel's <see cref="RetryOptions"/> as it travels with a job and is persisted: its data, not its delegates
/// (a job's retry decision is its handler's <see cref="Jobs.IWorkItemHandler.ShouldRetry"/> on each silo, and its jitter
/// comes from each silo's own randomness; <see cref="Jobs.ClusterJobOptions.Validate"/> refuses either delegate).
/// </summary>
[GenerateSerializer]
[Alias("millrace.retry-options")]
internal struct RetryOptionsSurrogate
{
    [Id(0)] public int MaxRetryAttempts;
    [Id(1)] public BackoffType BackoffType;
    [Id(2)] public TimeSpan Delay;
    [Id(3)] public TimeSpan MaxDelay;
}

/// <summary>Converts <see cref="RetryOptions"/> to and from <see cref="RetryOptionsSurrogate"/> for Orleans.</summary>
[RegisterConverter]
internal sealed class RetryOptionsSurrogateConverter : IConverter<RetryOptions, RetryOptionsSurrogate>
{
    public RetryOptions ConvertFromSurrogate(in RetryOptionsSurrogate surrogate) => new()
    {
        MaxRetryAttempts = surrogate.MaxRetryAttempts,
        BackoffType = surrogate.BackoffType,
        Delay = surrogate.Delay,
        MaxDelay = surrogate.MaxDelay,
    };

    public RetryOptionsSurrogate ConvertToSurrogate(in RetryOptions value) => new()
    {
        MaxRetryAttempts = value.MaxRetryAttempts,
        BackoffType = value.BackoffType,
        Delay = value.Delay,
        MaxDelay = value.MaxDelay,
    };
}

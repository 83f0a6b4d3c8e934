namespace Millrace.Parallel.Metrics;

/// <summary>
/// The names of the meter and instruments every run records to, following OpenTelemetry's naming
/// conventions, so any OpenTelemetry exporter that adds <see cref="MeterName"/> picks them up.
/// </summary>
public static class ParallelInstruments
{
    /// <summary>The meter's name.</summary>
    public const string MeterName = "Millrace.Parallel";

    /// <summary>Counter of items started.</summary>
    public const string ItemsStarted = "millrace.parallel.items.started";

    /// <summary>Counter of items that succeeded.</summary>
    public const string ItemsCompleted = "millrace.parallel.items.completed";

    /// <summary>Counter of items that failed after their retries.</summary>
    public const string ItemsFailed = "millrace.parallel.items.failed";

    /// <summary>Counter of retries.</summary>
    public const string ItemsRetried = "millrace.parallel.items.retried";

    /// <summary>Counter of items cancelled before they finished or started.</summary>
    public const string ItemsCancelled = "millrace.parallel.items.cancelled";

    /// <summary>Up-down counter of items in flight.</summary>
    public const string ItemsInFlight = "millrace.parallel.items.in_flight";

    /// <summary>Up-down counter of items read from an asynchronous source and waiting for a worker.</summary>
    public const string QueueDepth = "millrace.parallel.queue.depth";

    /// <summary>Histogram of item durations in seconds, retries included.</summary>
    public const string ItemDuration = "millrace.parallel.item.duration";

    /// <summary>Gauge of the circuit state: 0 closed, 1 open, 2 half-open, 3 isolated (the last change of any breaker in the run's pipeline).</summary>
    public const string CircuitState = "millrace.parallel.circuit.state";

    /// <summary>Gauge of the adaptive concurrency limit.</summary>
    public const string ConcurrencyLimit = "millrace.parallel.concurrency.limit";

    /// <summary>Counter of hook exceptions that were ignored.</summary>
    public const string HookErrors = "millrace.parallel.hook.errors";

    /// <summary>The tag every measurement carries: <see cref="ParallelOperatorOptions.OperationName"/>, or <see cref="UnnamedOperation"/>.</summary>
    public const string OperationTag = "millrace.parallel.operation";

    /// <summary>The <see cref="OperationTag"/> value of runs without an <see cref="ParallelOperatorOptions.OperationName"/>.</summary>
    public const string UnnamedOperation = "unnamed";
}

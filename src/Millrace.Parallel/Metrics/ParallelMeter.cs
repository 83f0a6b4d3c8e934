using System.Diagnostics.Metrics;

namespace Millrace.Parallel.Metrics;

/// <summary>
/// The instruments, created once for the process. Callers check <see cref="Instrument.Enabled"/> first, so
/// a run nobody listens to pays one field read per measurement.
/// </summary>
internal static class ParallelMeter
{
    private static readonly Meter Meter = new(ParallelInstruments.MeterName, typeof(ParallelMeter).Assembly.GetName().Version?.ToString());

    public static readonly Counter<long> Started = Meter.CreateCounter<long>(ParallelInstruments.ItemsStarted, "{item}", "Items started.");
    public static readonly Counter<long> Completed = Meter.CreateCounter<long>(ParallelInstruments.ItemsCompleted, "{item}", "Items that succeeded.");
    public static readonly Counter<long> Failed = Meter.CreateCounter<long>(ParallelInstruments.ItemsFailed, "{item}", "Items that failed after their retries.");
    public static readonly Counter<long> Retried = Meter.CreateCounter<long>(ParallelInstruments.ItemsRetried, "{retry}", "Retries.");
    public static readonly Counter<long> Cancelled = Meter.CreateCounter<long>(ParallelInstruments.ItemsCancelled, "{item}", "Items cancelled before they finished or started.");
    public static readonly UpDownCounter<long> InFlight = Meter.CreateUpDownCounter<long>(ParallelInstruments.ItemsInFlight, "{item}", "Items in flight.");
    public static readonly UpDownCounter<long> QueueDepth = Meter.CreateUpDownCounter<long>(ParallelInstruments.QueueDepth, "{item}", "Items read ahead and waiting for a worker.");
    public static readonly Histogram<double> Duration = Meter.CreateHistogram<double>(ParallelInstruments.ItemDuration, "s", "Item durations, retries included.");
    public static readonly Gauge<int> CircuitState = Meter.CreateGauge<int>(ParallelInstruments.CircuitState, "{state}", "Circuit state: 0 closed, 1 open, 2 half-open, 3 isolated.");
    public static readonly Gauge<int> ConcurrencyLimit = Meter.CreateGauge<int>(ParallelInstruments.ConcurrencyLimit, "{item}", "Adaptive concurrency limit.");
    public static readonly Counter<long> HookErrors = Meter.CreateCounter<long>(ParallelInstruments.HookErrors, "{error}", "Hook exceptions that were ignored.");
}

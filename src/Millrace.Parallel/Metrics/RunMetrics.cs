using System.Diagnostics.Metrics;

namespace Millrace.Parallel.Metrics;

/// <summary>
/// The metrics step of a run: records the run's measurements, tagged with its operation name, on the instruments of
/// <see cref="ParallelMeter"/>. <see langword="null"/> in the run when <see cref="ParallelOperatorOptions.Metrics"/> is off;
/// an instrument nobody listens to costs one check.
/// </summary>
internal sealed class RunMetrics(string? operationName)
{
    private readonly KeyValuePair<string, object?> _tag = new(ParallelInstruments.OperationTag, operationName ?? ParallelInstruments.UnnamedOperation);

    /// <summary>Gets a value indicating whether anyone listens to item durations, so the run times its items.</summary>
    public static bool DurationEnabled => ParallelMeter.Duration.Enabled;

    public void Add(Counter<long> counter, long value)
    {
        if (counter.Enabled)
        {
            counter.Add(value, _tag);
        }
    }

    public void Add(UpDownCounter<long> counter, long value)
    {
        if (counter.Enabled)
        {
            counter.Add(value, _tag);
        }
    }

    public void Record(Gauge<int> gauge, int value)
    {
        if (gauge.Enabled)
        {
            gauge.Record(value, _tag);
        }
    }

    public void RecordDuration(long elapsedTicks, long frequency)
    {
        if (elapsedTicks != 0 && ParallelMeter.Duration.Enabled)
        {
            ParallelMeter.Duration.Record(elapsedTicks / (double)frequency, _tag);
        }
    }
}

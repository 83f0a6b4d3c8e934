using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Millrace.Parallel.Metrics;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel.Tests.Metrics;

public class MetricsTests
{
    [Fact]
    public async Task Instruments_ReportStartedCompletedFailedRetriedInFlightAndDuration()
    {
        const string Operation = "metrics-test";
        var totals = new ConcurrentDictionary<string, double>();
        var durations = 0;
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == ParallelInstruments.MeterName)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };

        void OnMeasurement<T>(Instrument instrument, T value, ReadOnlySpan<KeyValuePair<string, object?>> tags, object? state)
            where T : struct
        {
            if (tags.Length != 1 || !Equals(tags[0].Value, Operation))
            {
                return;
            }

            if (instrument.Name == ParallelInstruments.ItemDuration)
            {
                Interlocked.Increment(ref durations);
                return;
            }

            totals.AddOrUpdate(instrument.Name, Convert.ToDouble(value, System.Globalization.CultureInfo.InvariantCulture), (_, v) => v + Convert.ToDouble(value, System.Globalization.CultureInfo.InvariantCulture));
        }

        listener.SetMeasurementEventCallback<long>(OnMeasurement);
        listener.SetMeasurementEventCallback<double>(OnMeasurement);
        listener.Start();

        var attempts = new int[20];
        var options = new ParallelOperatorOptions
        {
            OperationName = Operation,
            ErrorMode = ErrorMode.BestEffort,
            Retry = new RetryOptions { MaxRetryAttempts = 1, Delay = TimeSpan.Zero },
        };
        await Enumerable.Range(0, 20).SelectParallelAsync(
            (x, ct) =>
            {
                var attempt = Interlocked.Increment(ref attempts[x]);
                return x < 5 || (x < 8 && attempt == 1) ? ValueTask.FromException<int>(new IOException()) : ValueTask.FromResult(x);
            },
            options);

        Assert.Equal(20, totals[ParallelInstruments.ItemsStarted]);
        Assert.Equal(15, totals[ParallelInstruments.ItemsCompleted]);
        Assert.Equal(5, totals[ParallelInstruments.ItemsFailed]);
        Assert.Equal(8, totals[ParallelInstruments.ItemsRetried]);
        Assert.Equal(0, totals[ParallelInstruments.ItemsInFlight]);
        Assert.Equal(15, durations);
    }
}

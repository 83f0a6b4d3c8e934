using System.Collections.Concurrent;
using Millrace.Parallel.Progress;

namespace Millrace.Parallel.Tests.Progress;

public class ProgressTests
{
    [Fact]
    public void Reporter_ReportsCountsRateAndEtaAtTheIntervalAndOnceAtTheEnd()
    {
        var time = new ManualTimeProvider();
        var reports = new ConcurrentQueue<ParallelProgress>();
        using var reporter = new ProgressReporter(new ProgressOptions { Interval = TimeSpan.FromSeconds(1), OnProgress = reports.Enqueue }, time, total: 10, onError: _ => { });
        reporter.Start();
        for (var i = 0; i < 4; i++)
        {
            reporter.OnStarted();
        }

        reporter.OnCompleted();
        reporter.OnCompleted();
        reporter.OnFailed();
        reporter.OnRetry();
        time.Advance(TimeSpan.FromSeconds(1));
        time.Advance(TimeSpan.FromSeconds(1));
        reporter.OnCompleted();
        reporter.Finish();
        time.Advance(TimeSpan.FromSeconds(5));

        var all = reports.ToArray();
        Assert.Equal(3, all.Length);
        Assert.Equal(new ParallelProgress(4, 2, 1, 1, 10, TimeSpan.FromSeconds(1), 3, TimeSpan.FromSeconds(7.0 / 3), false), all[0]);
        Assert.Equal(1, all[0].InFlight);
        Assert.Equal(TimeSpan.FromSeconds(2), all[1].Elapsed);
        Assert.Equal(1.5, all[1].ItemsPerSecond);
        var final = all[2];
        Assert.True(final.IsFinal);
        Assert.Equal(3, final.Completed);
        Assert.Equal(0, final.InFlight);
        Assert.Equal(TimeSpan.FromSeconds(3), final.EstimatedRemaining);
    }

    [Fact]
    public void ThrowingCallback_GoesToTheRunNotTheTimerThread()
    {
        var time = new ManualTimeProvider();
        var errors = new ConcurrentQueue<Exception>();
        using var reporter = new ProgressReporter(new ProgressOptions { OnProgress = _ => throw new InvalidOperationException() }, time, null, errors.Enqueue);
        reporter.Start();
        time.Advance(TimeSpan.FromSeconds(1));
        Assert.Single(errors);
    }

    [Fact]
    public async Task Operator_MakesAFinalReportWithTheTotals()
    {
        var reporter = new Recorder();
        var options = new ParallelOperatorOptions { ErrorMode = ErrorMode.BestEffort, Progress = new ProgressOptions { Reporter = reporter, Interval = TimeSpan.FromHours(1) } };
        await Enumerable.Range(0, 5).ForEachParallelAsync((x, ct) => x == 2 ? ValueTask.FromException(new IOException()) : default, options);
        var final = Assert.Single(reporter.Reports);
        Assert.True(final.IsFinal);
        Assert.Equal((5, 4, 1, 5L), (final.Started, final.Completed, final.Failed, final.Total!.Value));
    }

    private sealed class Recorder : IProgress<ParallelProgress>
    {
        public ConcurrentQueue<ParallelProgress> Reports { get; } = new();

        public void Report(ParallelProgress value) => Reports.Enqueue(value);
    }
}

namespace Millrace.Parallel.Progress;

/// <summary>Counts a run's items and reports <see cref="ParallelProgress"/> on a timer of the run's clock.</summary>
internal sealed class ProgressReporter : IDisposable
{
    private readonly ProgressOptions _options;
    private readonly TimeProvider _time;
    private readonly long _startedAt;
    private readonly long? _total;
    private readonly Action<Exception> _onError;
    private ITimer? _timer;
    private long _started;
    private long _completed;
    private long _failed;
    private long _retries;
    private int _finished;

    public ProgressReporter(ProgressOptions options, TimeProvider time, long? total, Action<Exception> onError)
    {
        _onError = onError;
        _options = options;
        _time = time;
        _total = options.Total ?? total;
        _startedAt = time.GetTimestamp();
    }

    public void Start() =>
        _timer = _time.CreateTimer(static state => ((ProgressReporter)state!).Report(isFinal: false), this, _options.Interval, _options.Interval);

    public void OnStarted() => Interlocked.Increment(ref _started);

    public void OnCompleted() => Interlocked.Increment(ref _completed);

    public void OnFailed() => Interlocked.Increment(ref _failed);

    public void OnRetry() => Interlocked.Increment(ref _retries);

    public ParallelProgress Snapshot(bool isFinal)
    {
        var elapsed = _time.GetElapsedTime(_startedAt);
        var completed = Volatile.Read(ref _completed);
        var failed = Volatile.Read(ref _failed);
        var finished = completed + failed;
        var rate = elapsed > TimeSpan.Zero ? finished / elapsed.TotalSeconds : 0;
        TimeSpan? remaining = _total is { } total && rate > 0
            ? TimeSpan.FromSeconds(Math.Max(0, total - finished) / rate)
            : null;
        return new ParallelProgress(Volatile.Read(ref _started), completed, failed, Volatile.Read(ref _retries), _total, elapsed, rate, remaining, isFinal);
    }

    /// <summary>Stops the timer and makes the final report.</summary>
    public void Finish()
    {
        _timer?.Dispose();
        if (Interlocked.Exchange(ref _finished, 1) == 0)
        {
            Report(isFinal: true);
        }
    }

    public void Dispose() => _timer?.Dispose();

    private void Report(bool isFinal)
    {
        if (!isFinal && Volatile.Read(ref _finished) != 0)
        {
            return;
        }

        var snapshot = Snapshot(isFinal);
        try
        {
            _options.OnProgress?.Invoke(snapshot);
            _options.Reporter?.Report(snapshot);
        }
#pragma warning disable CA1031 // A progress callback runs on a timer thread, where an escaping exception would end the process; the run decides what it means.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            _onError(exception);
        }
    }
}

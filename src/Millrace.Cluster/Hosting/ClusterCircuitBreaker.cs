using Millrace.Cluster.Grains;
using Millrace.Cluster.Jobs;

namespace Millrace.Cluster.Hosting;

/// <summary>
/// A silo's end of a cluster-wide circuit breaker and its local breaker in one: it counts this silo's calls (opening
/// locally on their failure ratio), tells the breaker's grain whether the local breaker is open when it starts, every
/// <see cref="ReportInterval"/> and at once when the local breaker opens, and learns from each answer whether the shared
/// breaker is open. Calls wait for the first answer, then while either breaker is open.
/// </summary>
internal sealed class ClusterCircuitBreaker : IDisposable
{
    /// <summary>How often a silo reports: how late, at most, it hears that the shared breaker opened.</summary>
    internal static readonly TimeSpan ReportInterval = TimeSpan.FromMilliseconds(100);

    private readonly ICircuitBreakerGrain _grain;
    private readonly string _silo;
    private readonly ClusterCircuitBreakerOptions _options;
    private readonly TimeProvider _time;
    private readonly Lock _gate = new();
    private readonly Queue<(DateTimeOffset At, bool Failed)> _calls = new();
    private readonly TaskCompletionSource _heard = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _reporting;
    private TaskCompletionSource _reportNow = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _failures;
    private DateTimeOffset _localOpenUntil;
    private DateTimeOffset _sharedOpenUntil;

    public ClusterCircuitBreaker(ICircuitBreakerGrain grain, string silo, ClusterCircuitBreakerOptions options, TimeProvider time)
    {
        _grain = grain;
        _silo = silo;
        _options = options;
        _time = time;
        _reporting = Task.Run(ReportLoopAsync);
    }

    /// <summary>Gets a value indicating whether the shared or the local breaker is open: the silo then leases no items that would wait on it.</summary>
    public bool IsOpen
    {
        get
        {
            lock (_gate)
            {
                return OpenUntilLocked() > _time.GetUtcNow();
            }
        }
    }

    /// <summary>Waits until the grain has answered once, then while the shared or the local breaker is open.</summary>
    /// <param name="cancellationToken">Stops the wait.</param>
    /// <returns>A task that completes when calls may go on.</returns>
    public async ValueTask WaitWhileOpenAsync(CancellationToken cancellationToken)
    {
        await _heard.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
        while (true)
        {
            DateTimeOffset until;
            lock (_gate)
            {
                until = OpenUntilLocked();
            }

            var wait = until - _time.GetUtcNow();
            if (wait <= TimeSpan.Zero)
            {
                return;
            }

            await Task.Delay(wait, _time, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Counts one call's outcome, and opens the local breaker when the silo's window says so.</summary>
    /// <param name="failed">Whether it failed.</param>
    public void Record(bool failed)
    {
        var now = _time.GetUtcNow();
        lock (_gate)
        {
            _calls.Enqueue((now, failed));
            _failures += failed ? 1 : 0;
            while (_calls.TryPeek(out var oldest) && now - oldest.At > _options.SamplingDuration)
            {
                _failures -= _calls.Dequeue().Failed ? 1 : 0;
            }

            if (_calls.Count >= _options.MinimumThroughput && _failures >= _options.FailureRatio * _calls.Count)
            {
                _localOpenUntil = now + _options.BreakDuration;
                _calls.Clear();
                _failures = 0;
                _reportNow.TrySetResult();
            }
        }
    }

    public void Dispose()
    {
        _stop.Cancel();
        _reporting.Wait(TimeSpan.FromSeconds(5));
        _stop.Dispose();
    }

    private DateTimeOffset OpenUntilLocked() => _localOpenUntil > _sharedOpenUntil ? _localOpenUntil : _sharedOpenUntil;

    private async Task ReportLoopAsync()
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                bool locallyOpen;
                Task reportNow;
                lock (_gate)
                {
                    locallyOpen = _localOpenUntil > _time.GetUtcNow();
                    _reportNow = new(TaskCreationOptions.RunContinuationsAsynchronously);
                    reportNow = _reportNow.Task;
                }

                try
                {
                    var openUntil = await _grain.ReportAsync(_silo, locallyOpen, _options).ConfigureAwait(false);
                    lock (_gate)
                    {
                        _sharedOpenUntil = openUntil ?? default;
                    }
                }
                catch (Exception exception) when (exception is not OperationCanceledException)
                {
                    // The breaker's silo may be restarting: the local breaker still guards this silo, and the next report may get through.
                }

                // Calls go on after the first attempt even when it failed: a breaker that cannot be reached must not stop the job.
                _heard.TrySetResult();
                await Task.WhenAny(Task.Delay(ReportInterval, _time, _stop.Token), reportNow).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
            // The silo is stopping.
        }
    }
}

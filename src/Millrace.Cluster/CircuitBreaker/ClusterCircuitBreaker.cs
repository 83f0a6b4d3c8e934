using Millrace.Parallel.CircuitBreaker;

namespace Millrace.Cluster.CircuitBreaker;

/// <summary>
/// A silo's end of a cluster-wide circuit breaker: the silo's local breaker, a Millrace.Parallel
/// <see cref="SharedCircuitBreaker"/> that holds attempts while open and that every job naming the breaker adds to its
/// pipeline, and a loop that tells the breaker's grain whether the local breaker is open (when it starts, every
/// <see cref="ReportInterval"/>, and at once when it opens) and, while the grain answers that the shared breaker is open,
/// isolates the local one. When the shared break ends, the isolation ends as a local break does: one probe call decides
/// whether calls go on, the others wait for it. The local breaker starts isolated, so the silo's first calls wait for
/// the grain's first answer (or for its failure: a breaker that cannot be reached must not stop the job).
/// </summary>
internal sealed class ClusterCircuitBreaker : IDisposable
{
    /// <summary>How often a silo reports: how late, at most, it hears that the shared breaker opened or closed.</summary>
    internal static readonly TimeSpan ReportInterval = TimeSpan.FromMilliseconds(100);

    private readonly ICircuitBreakerGrain _grain;
    private readonly string _silo;
    private readonly ClusterCircuitBreakerOptions _options;
    private readonly TimeProvider _time;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _reporting;
    private TaskCompletionSource _reportNow = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private DateTimeOffset _sharedOpenUntil = DateTimeOffset.MinValue;
    private bool _sharedBreak;
    private volatile bool _heard;

    public ClusterCircuitBreaker(ICircuitBreakerGrain grain, string silo, ClusterCircuitBreakerOptions options, TimeProvider time)
    {
        _grain = grain;
        _silo = silo;
        _options = options;
        _time = time;
        Breaker = new SharedCircuitBreaker(options.ToLocalOptions(), time);
        Breaker.Isolate();
        Breaker.StateChanged += OnStateChanged;
        _reporting = Task.Run(ReportLoopAsync);
    }

    /// <summary>Gets the silo's local breaker, the gate its attempts pass.</summary>
    public SharedCircuitBreaker Breaker { get; }

    /// <summary>
    /// Gets a value indicating whether the shared or the local breaker holds calls back (open, isolated, or half-open with
    /// its probe out): the silo then leases no items that would only wait on it.
    /// </summary>
    public bool IsOpen => _heard && (Breaker.State is CircuitState.Open or CircuitState.Isolated || Breaker.Controller.ProbesTaken);

    public void Dispose()
    {
        _stop.Cancel();
        _reporting.Wait(TimeSpan.FromSeconds(5));
        Breaker.StateChanged -= OnStateChanged;
        _stop.Dispose();
    }

    private void OnStateChanged(object? sender, CircuitStateChange change)
    {
        if (change.To == CircuitState.Open)
        {
            Volatile.Read(ref _reportNow).TrySetResult();
        }
    }

    private async Task ReportLoopAsync()
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                var reportNow = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                Volatile.Write(ref _reportNow, reportNow);

                // Isolation is the cluster's verdict, not this silo's: only a break of its own counts as locally open.
                var locallyOpen = Breaker.State == CircuitState.Open;
                try
                {
                    var openUntil = await _grain.ReportAsync(_silo, locallyOpen, _options).ConfigureAwait(false);
                    _sharedOpenUntil = openUntil ?? DateTimeOffset.MinValue;
                }
                catch (Exception exception) when (exception is not OperationCanceledException)
                {
                    // The breaker's silo may be restarting: the local breaker still guards this silo, the last answer holds
                    // until it runs out, and the next report may get through.
                }

                if (_sharedOpenUntil > _time.GetUtcNow())
                {
                    _sharedBreak = true;
                    Breaker.Isolate();
                }
                else if (_sharedBreak)
                {
                    // A shared break ends as a local one does: the next call probes the service.
                    _sharedBreak = false;
                    Breaker.Controller.EndIsolation();
                }
                else if (Breaker.State == CircuitState.Isolated)
                {
                    // The first answer, and the shared breaker is closed: nothing was wrong.
                    Breaker.Close();
                }

                _heard = true;
                await Task.WhenAny(Task.Delay(ReportInterval, _time, _stop.Token), reportNow.Task).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
            // The silo is stopping.
        }
    }
}

namespace Millrace.Parallel.Adaptive;

/// <summary>
/// The AIMD controller and the gate it drives. Decisions are made once per round: a window of as many
/// completions as the current limit. A window congests when its average latency exceeds
/// <see cref="AdaptiveConcurrencyOptions.LatencyTolerance"/> times the long-run average, or when its failure
/// ratio rises more than 10 points above the long-run ratio or reaches one half; comparing averages rather than single samples
/// keeps timer jitter and thread-pool hiccups from reading as congestion.
/// <para>
/// The gate is a <see cref="SemaphoreSlim"/> whose capacity grows by releasing permits and shrinks by
/// withholding the next returned permits (a debt), so a waiting worker never allocates more than the
/// semaphore itself does.
/// </para>
/// </summary>
internal sealed class AdaptiveConcurrencyLimiter : IDisposable
{
    private const double LongRunWeight = 0.05;
    private const double FailureRise = 0.1;
    private const double FailingRound = 0.5;

    private readonly AdaptiveConcurrencyOptions _options;
    private readonly int _maxLimit;
    private readonly SemaphoreSlim _permits;
    private readonly Lock _gate = new();
    private readonly Action<int> _onLimitChanged;
    private double _limit;
    private int _capacity;
    private int _debt;
    private int _inFlight;
    private int _peakInFlight;
    private bool _slowStart = true;
    private int _windowCompletions;
    private int _windowFailures;
    private double _windowLatencySum;
    private double _longLatency;
    private double _longFailureRatio;

    public AdaptiveConcurrencyLimiter(AdaptiveConcurrencyOptions options, int maxLimit, Action<int> onLimitChanged)
    {
        _options = options;
        _maxLimit = maxLimit;
        _onLimitChanged = onLimitChanged;
        _capacity = Math.Clamp(options.InitialLimit, options.MinLimit, maxLimit);
        _limit = _capacity;
        _permits = new SemaphoreSlim(_capacity, int.MaxValue);
    }

    /// <summary>Gets the current limit.</summary>
    public int Limit
    {
        get
        {
            lock (_gate)
            {
                return _capacity;
            }
        }
    }

    /// <summary>Waits for a permit to start an item.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>A task that completes when the permit is held.</returns>
    public async ValueTask WaitAsync(CancellationToken cancellationToken)
    {
        await _permits.WaitAsync(cancellationToken).ConfigureAwait(false);
        lock (_gate)
        {
            _inFlight++;
            _peakInFlight = Math.Max(_peakInFlight, _inFlight);
        }
    }

    /// <summary>Returns a permit that was never used for an item (the source had ended).</summary>
    public void Return()
    {
        lock (_gate)
        {
            _inFlight--;
            ReleasePermit();
        }
    }

    /// <summary>Returns a permit with the outcome of its item, and adjusts the limit at the end of each window.</summary>
    /// <param name="latencyTicks">How long the item took, in timestamp ticks.</param>
    /// <param name="failed">Whether the item failed or timed out.</param>
    public void Complete(long latencyTicks, bool failed)
    {
        var changed = 0;
        lock (_gate)
        {
            _inFlight--;
            _windowCompletions++;
            if (failed)
            {
                _windowFailures++;
            }
            else
            {
                _windowLatencySum += latencyTicks;
            }

            if (_windowCompletions >= _capacity)
            {
                Adjust();
                changed = Resize();
            }

            ReleasePermit();
        }

        if (changed != 0)
        {
            _onLimitChanged(changed);
        }
    }

    public void Dispose() => _permits.Dispose();

    private void Adjust()
    {
        var completions = _windowCompletions;
        var successes = completions - _windowFailures;
        var failureRatio = _windowFailures / (double)completions;
        var latency = successes > 0 ? _windowLatencySum / successes : _longLatency;
        var firstWindow = _longLatency == 0;
        var congested = failureRatio > _longFailureRatio + FailureRise
            || failureRatio >= FailingRound
            || (!firstWindow && latency > _options.LatencyTolerance * _longLatency);

        if (congested)
        {
            _slowStart = false;
            _limit = Math.Max(_options.MinLimit, _limit * _options.BackoffRatio);
        }
        else if (_peakInFlight * 2 >= _capacity)
        {
            // Slow start adds one per completion of the window (doubling each round); afterwards, one per round.
            _limit = Math.Min(_maxLimit, _limit + (_slowStart ? completions : 1));
        }

        if (latency > 0)
        {
            // The long-run latency follows improvements at once and degradations slowly, so a congested
            // window stands out against it.
            _longLatency = firstWindow || latency < _longLatency ? latency : ((1 - LongRunWeight) * _longLatency) + (LongRunWeight * latency);
        }

        _longFailureRatio = ((1 - LongRunWeight) * _longFailureRatio) + (LongRunWeight * failureRatio);
        _windowCompletions = 0;
        _windowFailures = 0;
        _windowLatencySum = 0;
        _peakInFlight = _inFlight;
    }

    /// <summary>Moves the gate's capacity to the whole part of the limit.</summary>
    /// <returns>The new capacity when it changed, else 0.</returns>
    private int Resize()
    {
        var target = (int)_limit;
        var delta = target - _capacity;
        if (delta == 0)
        {
            return 0;
        }

        _capacity = target;
        if (delta < 0)
        {
            _debt -= delta;
            return target;
        }

        var repaid = Math.Min(delta, _debt);
        _debt -= repaid;
        if (delta > repaid)
        {
            _permits.Release(delta - repaid);
        }

        return target;
    }

    private void ReleasePermit()
    {
        if (_debt > 0)
        {
            _debt--;
            return;
        }

        _permits.Release();
    }
}

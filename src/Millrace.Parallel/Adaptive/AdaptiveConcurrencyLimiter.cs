namespace Millrace.Parallel.Adaptive;

/// <summary>
/// The AIMD controller and the gate it drives. The gate is a <see cref="SemaphoreSlim"/> whose capacity
/// grows by releasing permits and shrinks by withholding the next returned permits (a debt), so a
/// waiting worker never allocates more than the semaphore itself does.
/// </summary>
internal sealed class AdaptiveConcurrencyLimiter : IDisposable
{
    private readonly AdaptiveConcurrencyOptions _options;
    private readonly int _maxLimit;
    private readonly SemaphoreSlim _permits;
    private readonly Lock _gate = new();
    private readonly Action<int> _onLimitChanged;
    private double _limit;
    private int _capacity;
    private int _debt;
    private int _inFlight;
    private bool _slowStart = true;
    private long _bestLatency = long.MaxValue;
    private int _peakInFlight;
    private int _roundCompletions;
    private long _generation;

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
    /// <returns>A ticket to hand back to <see cref="Complete"/>: the limit's generation when the item started.</returns>
    public async ValueTask<long> WaitAsync(CancellationToken cancellationToken)
    {
        await _permits.WaitAsync(cancellationToken).ConfigureAwait(false);
        lock (_gate)
        {
            _inFlight++;
            _peakInFlight = Math.Max(_peakInFlight, _inFlight);
            return _generation;
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

    /// <summary>Returns a permit with the outcome of its item, and adjusts the limit.</summary>
    /// <param name="ticket">What <see cref="WaitAsync"/> returned for the item.</param>
    /// <param name="latencyTicks">How long the item took, in timestamp ticks.</param>
    /// <param name="failed">Whether the item failed or timed out.</param>
    public void Complete(long ticket, long latencyTicks, bool failed)
    {
        int changed;
        lock (_gate)
        {
            _inFlight--;
            var congested = failed || (_bestLatency != long.MaxValue && latencyTicks > _options.LatencyTolerance * _bestLatency);
            if (!failed)
            {
                _bestLatency = Math.Min(_bestLatency, Math.Max(1, latencyTicks));
            }

            if (congested)
            {
                // Items that started before the last decrease saw the old limit: one decrease per round trip, as TCP does.
                if (ticket == _generation)
                {
                    _slowStart = false;
                    _limit = Math.Max(_options.MinLimit, _limit * _options.BackoffRatio);
                    _generation++;
                }
            }
            else if (_peakInFlight * 2 >= _capacity)
            {
                _limit = Math.Min(_maxLimit, _limit + (_slowStart ? 1 : 1 / _limit));
            }

            // The limit counts as used if it was at least half used at some point in the last round of completions.
            if (++_roundCompletions >= _capacity)
            {
                _roundCompletions = 0;
                _peakInFlight = _inFlight;
            }

            changed = Resize();
            ReleasePermit();
        }

        if (changed != 0)
        {
            _onLimitChanged(changed);
        }
    }

    public void Dispose() => _permits.Dispose();

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

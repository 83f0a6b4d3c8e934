namespace Millrace.Parallel.CircuitBreaker;

/// <summary>
/// The circuit-breaker step of the pipeline: the state machine behind <see cref="CircuitBreakerOptions"/>, one per run
/// and shared by its workers, or one per <see cref="SharedCircuitBreaker"/> and shared by every run given it. The
/// closed state's success path is a volatile read when no failure is pending; everything else takes a lock.
/// </summary>
internal sealed class CircuitController
{
    private const int Buckets = 10;

    private readonly CircuitBreakerOptions _options;
    private readonly TimeProvider _time;
    private Action<CircuitStateChange>? _onChange;
    private readonly Lock _gate = new();
    private readonly long _breakTicks;
    private readonly long _bucketTicks;
    private readonly long[]? _bucketIds;
    private readonly int[]? _successes;
    private readonly int[]? _failures;
    private TaskCompletionSource? _changed;
    private int _state;
    private int _consecutiveFailures;
    private int _probesInFlight;
    private long _openUntil;

    /// <summary>Gets a value indicating whether attempts wait instead of failing when the circuit does not let them through.</summary>
    public bool HoldsWhenOpen => _options.WhenOpen == CircuitOpenBehavior.Hold;

    public CircuitController(CircuitBreakerOptions options, TimeProvider time)
    {
        _options = options;
        _time = time;
        _breakTicks = ToTimestampTicks(options.BreakDuration, time);
        if (options.FailureRatio is not null)
        {
            _bucketTicks = Math.Max(1, ToTimestampTicks(options.SamplingDuration, time) / Buckets);
            _bucketIds = new long[Buckets];
            Array.Fill(_bucketIds, -1);
            _successes = new int[Buckets];
            _failures = new int[Buckets];
        }
    }

    /// <summary>
    /// Gets the state an attempt would find now: an open circuit whose break has ended reads as half-open, though it
    /// moves there (and says so to its listeners) only when the next attempt asks.
    /// </summary>
    public CircuitState State
    {
        get
        {
            var state = (CircuitState)Volatile.Read(ref _state);
            if (state != CircuitState.Open)
            {
                return state;
            }

            lock (_gate)
            {
                return _state == (int)CircuitState.Open && _time.GetTimestamp() >= _openUntil ? CircuitState.HalfOpen : (CircuitState)_state;
            }
        }
    }

    /// <summary>Adds a listener for state changes: each run using the breaker adds its own for its hooks and metrics.</summary>
    /// <param name="listener">The listener; remove the same instance with <see cref="Unsubscribe"/>.</param>
    public void Subscribe(Action<CircuitStateChange> listener)
    {
        Action<CircuitStateChange>? current;
        do
        {
            current = Volatile.Read(ref _onChange);
        }
        while (Interlocked.CompareExchange(ref _onChange, (Action<CircuitStateChange>)Delegate.Combine(current, listener), current) != current);
    }

    /// <summary>Removes a listener added by <see cref="Subscribe"/>.</summary>
    /// <param name="listener">The listener.</param>
    public void Unsubscribe(Action<CircuitStateChange> listener)
    {
        Action<CircuitStateChange>? current;
        do
        {
            current = Volatile.Read(ref _onChange);
        }
        while (Interlocked.CompareExchange(ref _onChange, (Action<CircuitStateChange>?)Delegate.Remove(current, listener), current) != current);
    }

    /// <summary>Asks to run an attempt.</summary>
    /// <param name="isProbe">Whether the attempt is a half-open probe whose outcome decides the state.</param>
    /// <param name="retryAfter">When rejected by an open circuit, how long it stays open; zero when half-open or isolated.</param>
    /// <returns><see langword="false"/> when the circuit rejects the attempt.</returns>
    public bool TryEnter(out bool isProbe, out TimeSpan retryAfter)
    {
        isProbe = false;
        retryAfter = TimeSpan.Zero;
        if (Volatile.Read(ref _state) == (int)CircuitState.Closed)
        {
            return true;
        }

        CircuitStateChange? change;
        bool allowed;
        lock (_gate)
        {
            allowed = TryEnterLocked(out isProbe, out retryAfter, out change);
        }

        Notify(change);
        return allowed;
    }

    /// <summary>
    /// Waits until the circuit lets an attempt through: while it is open (until the break ends or it is closed), while it
    /// is isolated, and while half-open with every probe taken (until a probe decides). The hold mode of
    /// <see cref="CircuitOpenBehavior.Hold"/>.
    /// </summary>
    /// <param name="cancellationToken">Stops the wait.</param>
    /// <returns>Whether the attempt is a half-open probe.</returns>
    public async ValueTask<bool> EnterWhenAllowedAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            CircuitStateChange? change;
            bool allowed;
            bool isProbe;
            TimeSpan retryAfter;
            Task changed;
            lock (_gate)
            {
                allowed = TryEnterLocked(out isProbe, out retryAfter, out change);
                changed = allowed ? Task.CompletedTask : (_changed ??= new(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
            }

            Notify(change);
            if (allowed)
            {
                return isProbe;
            }

            if (retryAfter <= TimeSpan.Zero)
            {
                await changed.WaitAsync(cancellationToken).ConfigureAwait(false);
                continue;
            }

            // Open: the break ends on the clock, or earlier when the circuit is closed by hand.
            using var breakEnd = new CancellationTokenSource(retryAfter, _time);
            using var either = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, breakEnd.Token);
            try
            {
                await changed.WaitAsync(either.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                // The break is over: ask again.
            }
        }
    }

    /// <summary>Opens the circuit until <see cref="Close"/> is called, whatever the attempts' outcomes.</summary>
    public void Isolate()
    {
        CircuitStateChange? change = null;
        lock (_gate)
        {
            if (_state != (int)CircuitState.Isolated)
            {
                change = Transition(CircuitState.Isolated);
            }
        }

        Notify(change);
    }

    /// <summary>Closes the circuit, whatever its state, and starts counting afresh.</summary>
    public void Close()
    {
        CircuitStateChange? change = null;
        lock (_gate)
        {
            if (_state != (int)CircuitState.Closed)
            {
                change = Transition(CircuitState.Closed);
            }
        }

        Notify(change);
    }

    /// <summary>
    /// Gives back an attempt's entry when the attempt never ran (a gate after the breaker refused it or the run was
    /// cancelled): a probe's slot is freed for the next attempt without deciding anything.
    /// </summary>
    /// <param name="isProbe">What the entry said of the attempt.</param>
    public void Abandon(bool isProbe)
    {
        if (!isProbe)
        {
            return;
        }

        lock (_gate)
        {
            _probesInFlight--;
            WakeLocked();
        }
    }

    private bool TryEnterLocked(out bool isProbe, out TimeSpan retryAfter, out CircuitStateChange? change)
    {
        isProbe = false;
        retryAfter = TimeSpan.Zero;
        change = null;
        switch ((CircuitState)_state)
        {
            case CircuitState.Closed:
                return true;
            case CircuitState.Open:
                var now = _time.GetTimestamp();
                if (now < _openUntil)
                {
                    retryAfter = _time.GetElapsedTime(now, _openUntil);
                    return false;
                }

                change = Transition(CircuitState.HalfOpen);
                _probesInFlight = 1;
                isProbe = true;
                return true;
            case CircuitState.HalfOpen:
                if (_probesInFlight >= _options.HalfOpenProbes)
                {
                    return false;
                }

                _probesInFlight++;
                isProbe = true;
                return true;
            default:
                return false;
        }
    }

    /// <summary>Records a successful attempt.</summary>
    /// <param name="isProbe">What <see cref="TryEnter"/> said of the attempt.</param>
    public void OnSuccess(bool isProbe)
    {
        if (!isProbe && _bucketIds is null && Volatile.Read(ref _consecutiveFailures) == 0)
        {
            return;
        }

        CircuitStateChange? change = null;
        lock (_gate)
        {
            if (isProbe)
            {
                _probesInFlight--;
                if (_state == (int)CircuitState.HalfOpen)
                {
                    change = Transition(CircuitState.Closed);
                }
            }
            else if (_state == (int)CircuitState.Closed)
            {
                _consecutiveFailures = 0;
                Sample(failed: false);
            }
        }

        Notify(change);
    }

    /// <summary>Records a failed attempt.</summary>
    /// <param name="isProbe">What <see cref="TryEnter"/> said of the attempt.</param>
    /// <param name="exception">The attempt's exception; <see cref="CircuitBreakerOptions.ShouldHandle"/> decides whether it counts.</param>
    public void OnFailure(bool isProbe, Exception exception)
    {
        var counts = _options.Counts(exception);
        CircuitStateChange? change = null;
        lock (_gate)
        {
            if (isProbe)
            {
                // A failure that does not count (a cancellation, say) says nothing about the service: free the
                // probe slot and let the next attempt probe instead.
                _probesInFlight--;
                WakeLocked();
                if (counts && _state == (int)CircuitState.HalfOpen)
                {
                    change = Open();
                }
            }
            else if (counts && _state == (int)CircuitState.Closed && ShouldOpen())
            {
                change = Open();
            }
        }

        Notify(change);
    }

    private static long ToTimestampTicks(TimeSpan span, TimeProvider time) =>
        (long)Math.Min(long.MaxValue / 4, span.TotalSeconds * time.TimestampFrequency);

    private bool ShouldOpen()
    {
        if (_bucketIds is null)
        {
            return ++_consecutiveFailures >= _options.ConsecutiveFailures;
        }

        Sample(failed: true);
        long successes = 0;
        long failures = 0;
        var current = _time.GetTimestamp() / _bucketTicks;
        for (var i = 0; i < Buckets; i++)
        {
            if (_bucketIds[i] > current - Buckets)
            {
                successes += _successes![i];
                failures += _failures![i];
            }
        }

        var total = successes + failures;
        return total >= _options.MinimumThroughput && failures >= _options.FailureRatio!.Value * total;
    }

    private void Sample(bool failed)
    {
        if (_bucketIds is null)
        {
            return;
        }

        var id = _time.GetTimestamp() / _bucketTicks;
        var slot = (int)(id % Buckets);
        if (_bucketIds[slot] != id)
        {
            _bucketIds[slot] = id;
            _successes![slot] = 0;
            _failures![slot] = 0;
        }

        if (failed)
        {
            _failures![slot]++;
        }
        else
        {
            _successes![slot]++;
        }
    }

    private CircuitStateChange Open()
    {
        _openUntil = _time.GetTimestamp() + _breakTicks;
        return Transition(CircuitState.Open);
    }

    private CircuitStateChange Transition(CircuitState to)
    {
        var from = (CircuitState)_state;
        Volatile.Write(ref _state, (int)to);
        WakeLocked();
        if (to == CircuitState.Closed)
        {
            _consecutiveFailures = 0;
            _probesInFlight = 0;
            if (_bucketIds is not null)
            {
                Array.Fill(_bucketIds, -1);
            }
        }

        return new CircuitStateChange(from, to, _time.GetUtcNow());
    }

    /// <summary>Wakes the attempts holding in <see cref="EnterWhenAllowedAsync"/>: the state or the probes changed.</summary>
    private void WakeLocked()
    {
        _changed?.TrySetResult();
        _changed = null;
    }

    private void Notify(CircuitStateChange? change)
    {
        if (change is { } value)
        {
            Volatile.Read(ref _onChange)?.Invoke(value);
        }
    }
}

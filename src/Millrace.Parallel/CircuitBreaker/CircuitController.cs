namespace Millrace.Parallel.CircuitBreaker;

/// <summary>
/// The circuit-breaker state machine behind <see cref="CircuitBreakerOptions"/>: one per pipeline (a run's own, or one
/// a caller built and shares) or one per <see cref="SharedCircuitBreaker"/>, shared by everything that runs through it.
/// The closed state's success path is a volatile read when no failure is pending; everything else takes a lock. A
/// half-open probe holds a ticket, the number of the half-open period it was let into: an outcome reported after the
/// circuit moved on (closed by hand, isolated, or half-open again) is an ordinary attempt's, and neither frees a
/// probe slot of the new period nor decides it.
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
    private int _probePeriod;
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
    /// <param name="probe">The attempt's probe ticket when it is a half-open probe whose outcome decides the state; 0 when it is not.</param>
    /// <param name="retryAfter">When rejected by an open circuit, how long it stays open; zero when half-open or isolated.</param>
    /// <returns><see langword="false"/> when the circuit rejects the attempt.</returns>
    public bool TryEnter(out int probe, out TimeSpan retryAfter)
    {
        probe = 0;
        retryAfter = TimeSpan.Zero;
        if (Volatile.Read(ref _state) == (int)CircuitState.Closed)
        {
            return true;
        }

        CircuitStateChange? change;
        bool allowed;
        lock (_gate)
        {
            allowed = TryEnterLocked(out probe, out retryAfter, out change);
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
    /// <returns>The attempt's probe ticket, or 0 when it is not a probe.</returns>
    public async ValueTask<int> EnterWhenAllowedAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            CircuitStateChange? change;
            bool allowed;
            int probe;
            TimeSpan retryAfter;
            Task changed;
            lock (_gate)
            {
                allowed = TryEnterLocked(out probe, out retryAfter, out change);
                changed = allowed ? Task.CompletedTask : (_changed ??= new(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
            }

            Notify(change);
            if (allowed)
            {
                return probe;
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
    /// Ends the isolation <see cref="Isolate"/> began by letting the next attempt probe: the circuit reads as half-open at
    /// once, one probe decides whether it closes, and the others wait (or fail) meanwhile, as after a break.
    /// </summary>
    public void EndIsolation()
    {
        lock (_gate)
        {
            if (_state != (int)CircuitState.Isolated)
            {
                return;
            }

            _openUntil = _time.GetTimestamp();
            Volatile.Write(ref _state, (int)CircuitState.Open);
            WakeLocked();
        }
    }

    /// <summary>Gets a value indicating whether the circuit is half-open with every probe slot taken: attempts now would wait.</summary>
    public bool ProbesTaken
    {
        get
        {
            lock (_gate)
            {
                return _state == (int)CircuitState.HalfOpen && _probesInFlight >= _options.HalfOpenProbes;
            }
        }
    }

    /// <summary>
    /// Gives back an attempt's entry when the attempt never ran, or ran while its caller cancelled it (a gate after the
    /// breaker refused it, the run stopped): a probe's slot is freed for the next attempt without deciding anything.
    /// </summary>
    /// <param name="probe">The attempt's probe ticket, or 0.</param>
    public void Abandon(int probe)
    {
        if (probe == 0)
        {
            return;
        }

        lock (_gate)
        {
            ReleaseProbeLocked(probe);
        }
    }

    private bool TryEnterLocked(out int probe, out TimeSpan retryAfter, out CircuitStateChange? change)
    {
        probe = 0;
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
                _probePeriod++;
                _probesInFlight = 1;
                probe = _probePeriod;
                return true;
            case CircuitState.HalfOpen:
                if (_probesInFlight >= _options.HalfOpenProbes)
                {
                    return false;
                }

                _probesInFlight++;
                probe = _probePeriod;
                return true;
            default:
                return false;
        }
    }

    /// <summary>Records a successful attempt.</summary>
    /// <param name="probe">The attempt's probe ticket, or 0.</param>
    public void OnSuccess(int probe)
    {
        if (probe == 0 && _bucketIds is null && Volatile.Read(ref _consecutiveFailures) == 0)
        {
            return;
        }

        CircuitStateChange? change = null;
        lock (_gate)
        {
            if (ReleaseProbeLocked(probe))
            {
                change = Transition(CircuitState.Closed);
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
    /// <param name="probe">The attempt's probe ticket, or 0.</param>
    /// <param name="exception">The attempt's exception; <see cref="CircuitBreakerOptions.ShouldHandle"/> decides whether it counts.</param>
    public void OnFailure(int probe, Exception exception)
    {
        var counts = _options.Counts(exception);
        CircuitStateChange? change = null;
        lock (_gate)
        {
            // A failure that does not count (a cancellation, say) says nothing about the service: a probe's slot is freed
            // and the next attempt probes instead.
            if (ReleaseProbeLocked(probe))
            {
                if (counts)
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

    /// <summary>Frees a probe's slot when the probe belongs to the current half-open period.</summary>
    /// <returns>Whether it did: the probe's outcome then decides the state.</returns>
    private bool ReleaseProbeLocked(int probe)
    {
        if (probe == 0 || probe != _probePeriod || _state != (int)CircuitState.HalfOpen)
        {
            return false;
        }

        _probesInFlight--;
        WakeLocked();
        return true;
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

    /// <summary>Tells every listener of a state change, each in turn (<see cref="NotifyEach{TDelegate}"/>).</summary>
    private void Notify(CircuitStateChange? change)
    {
        if (change is { } value)
        {
            NotifyEach(Volatile.Read(ref _onChange), listener => listener(value));
        }
    }

    /// <summary>
    /// Calls every listener of <paramref name="listeners"/> in turn: one that throws does not keep the others (another
    /// run's hooks, a cluster's report) from hearing; its exception is thrown after all have heard, to the attempt or
    /// call that changed the state.
    /// </summary>
    internal static void NotifyEach<TDelegate>(TDelegate? listeners, Action<TDelegate> call)
        where TDelegate : Delegate
    {
        Exception? first = null;
        foreach (var listener in Delegate.EnumerateInvocationList(listeners))
        {
            try
            {
                call(listener);
            }
#pragma warning disable CA1031 // Rethrown below, once every listener has heard.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                first ??= exception;
            }
        }

        if (first is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(first);
        }
    }
}

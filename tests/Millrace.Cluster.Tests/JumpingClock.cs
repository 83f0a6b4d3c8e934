namespace Millrace.Cluster.Tests;

/// <summary>
/// The cluster tests' clock: it runs with real time, because the silos' messages travel in real time, and a test moves
/// it ahead (<see cref="Advance"/>) instead of sleeping through a break, a lease or a rate's window; every timer made
/// from it that falls due on the way fires at once. Registered on every silo as Millrace's keyed clock and given to
/// the client, so every wait of Millrace's cluster code (polls, renewals, backoff, time-outs, breaks, rate limits) and
/// every time a test measures are on it; Orleans keeps the system's.
/// </summary>
internal sealed class JumpingClock : TimeProvider
{
    private readonly Lock _gate = new();
    private readonly HashSet<JumpingTimer> _timers = [];
    private long _offset;

    public override long TimestampFrequency => System.TimestampFrequency;

    public override long GetTimestamp() => System.GetTimestamp() + Volatile.Read(ref _offset);

    public override DateTimeOffset GetUtcNow() => System.GetUtcNow() + TimeSpan.FromSeconds(Volatile.Read(ref _offset) / (double)TimestampFrequency);

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var timer = new JumpingTimer(this, callback, state);
        lock (_gate)
        {
            _timers.Add(timer);
        }

        timer.Change(dueTime, period);
        return timer;
    }

    /// <summary>Moves the clock ahead by <paramref name="delta"/>; the timers due by then fire at once.</summary>
    public void Advance(TimeSpan delta)
    {
        JumpingTimer[] timers;
        lock (_gate)
        {
            Interlocked.Add(ref _offset, (long)(delta.TotalSeconds * TimestampFrequency));
            timers = [.. _timers];
        }

        foreach (var timer in timers)
        {
            timer.Reschedule();
        }
    }

    private void Remove(JumpingTimer timer)
    {
        lock (_gate)
        {
            _timers.Remove(timer);
        }
    }

    /// <summary>A timer due at a time of the clock, served by a real timer set for the real time left until then.</summary>
    private sealed class JumpingTimer : ITimer
    {
        private readonly JumpingClock _clock;
        private readonly TimerCallback _callback;
        private readonly object? _state;
        private readonly Timer _real;
        private readonly Lock _gate = new();
        private long? _dueAt;
        private long _period;
        private bool _disposed;

        public JumpingTimer(JumpingClock clock, TimerCallback callback, object? state)
        {
            _clock = clock;
            _callback = callback;
            _state = state;
            _real = new Timer(static self => ((JumpingTimer)self!).OnRealTimer(), this, Timeout.Infinite, Timeout.Infinite);
        }

        public bool Change(TimeSpan dueTime, TimeSpan period)
        {
            lock (_gate)
            {
                _dueAt = dueTime == Timeout.InfiniteTimeSpan ? null : _clock.GetTimestamp() + Math.Max(0, Ticks(dueTime));
                _period = period == Timeout.InfiniteTimeSpan || period == TimeSpan.Zero ? 0 : Math.Max(1, Ticks(period));
                ScheduleLocked();
            }

            return true;
        }

        public void Reschedule()
        {
            lock (_gate)
            {
                ScheduleLocked();
            }
        }

        public void Dispose()
        {
            // Under the lock, with the flag set: an Advance on another thread reschedules a snapshot of the timers and may
            // reach this one after it is gone.
            lock (_gate)
            {
                _disposed = true;
                _dueAt = null;
                _real.Dispose();
            }

            _clock.Remove(this);
        }

        public ValueTask DisposeAsync()
        {
            Dispose();
            return ValueTask.CompletedTask;
        }

        private void OnRealTimer()
        {
            lock (_gate)
            {
                if (_dueAt is not { } due)
                {
                    return;
                }

                if (_clock.GetTimestamp() < due)
                {
                    // A real timer may fire a little early: wait for the rest.
                    ScheduleLocked();
                    return;
                }

                // A periodic timer that a jump left several periods behind fires once, then keeps its period from now.
                _dueAt = _period > 0 ? Math.Max(due + _period, _clock.GetTimestamp()) : null;
                ScheduleLocked();
            }

            _callback(_state);
        }

        private void ScheduleLocked()
        {
            if (_disposed)
            {
                return;
            }

            if (_dueAt is not { } due)
            {
                _real.Change(Timeout.Infinite, Timeout.Infinite);
                return;
            }

            var left = TimeSpan.FromSeconds(Math.Max(0, due - _clock.GetTimestamp()) / (double)_clock.TimestampFrequency);
            _real.Change((long)Math.Ceiling(left.TotalMilliseconds), Timeout.Infinite);
        }

        private long Ticks(TimeSpan span) => (long)(span.TotalSeconds * _clock.TimestampFrequency);
    }
}

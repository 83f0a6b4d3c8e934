namespace Millrace.Parallel.Tests;

/// <summary>
/// A clock that moves only when a test advances it, firing due timers in order, so tests of delays, breakers,
/// rate limits and progress never sleep.
/// </summary>
public sealed class ManualTimeProvider : TimeProvider
{
    private readonly Lock _gate = new();
    private readonly List<ManualTimer> _timers = [];
    private readonly DateTimeOffset _epoch = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private long _now;

    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    /// <summary>
    /// Gets or sets how the clock serves a timer's wait: maps the wait asked for to the wait after which the timer
    /// really fires, to model timers that fire early or late. Default: exactly on time.
    /// </summary>
    public Func<TimeSpan, TimeSpan>? TimerSkew { get; set; }

    public int PendingTimers
    {
        get
        {
            lock (_gate)
            {
                return _timers.Count(t => t.DueAt is not null);
            }
        }
    }

    public override DateTimeOffset GetUtcNow() => _epoch.AddTicks(GetTimestamp());

    public override long GetTimestamp()
    {
        lock (_gate)
        {
            return _now;
        }
    }

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var timer = new ManualTimer(this, callback, state);
        lock (_gate)
        {
            _timers.Add(timer);
        }

        timer.Change(dueTime, period);
        return timer;
    }

    /// <summary>Moves the clock forward, firing every timer that falls due on the way, at its due time.</summary>
    public void Advance(TimeSpan delta)
    {
        long target;
        lock (_gate)
        {
            target = _now + delta.Ticks;
        }

        while (true)
        {
            ManualTimer? next;
            lock (_gate)
            {
                next = _timers.Where(t => t.DueAt <= target).MinBy(t => t.DueAt);
                if (next is null)
                {
                    _now = target;
                    return;
                }

                _now = Math.Max(_now, next.DueAt!.Value);
                next.DueAt = next.Period is { } period ? _now + Math.Max(1, Skew(period)) : null;
            }

            next.Fire();
        }
    }

    /// <summary>Advances to each next due timer until <paramref name="task"/> completes; real time passes only while no timer is pending.</summary>
    public async Task<T> RunUntilAsync<T>(Task<T> task)
    {
        await DriveAsync(task);
        return await task;
    }

    /// <summary>Advances to each next due timer until <paramref name="task"/> completes.</summary>
    /// <param name="task">The work to drive.</param>
    /// <param name="canAdvance">
    /// When given, time moves only while it returns <see langword="true"/>: the test says when what the last timer woke
    /// has run, so a loaded machine that is slow to run it cannot see time jump past it.
    /// </param>
    public async Task RunUntilAsync(Task task, Func<bool>? canAdvance = null)
    {
        await DriveAsync(task, canAdvance);
        await task;
    }

    private async Task DriveAsync(Task task, Func<bool>? canAdvance = null)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (!task.IsCompleted)
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException("The task did not complete within 30 real seconds.");
            }

            if (canAdvance?.Invoke() == false)
            {
                await Task.WhenAny(task, Task.Delay(1));
                continue;
            }

            long? due;
            lock (_gate)
            {
                due = _timers.Where(t => t.DueAt is not null).Min(t => t.DueAt);
            }

            if (due is { } at)
            {
                Advance(TimeSpan.FromTicks(Math.Max(0, at - GetTimestamp())));
            }

            await Task.WhenAny(task, Task.Delay(1));
        }
    }

    private long Skew(long ticks) => TimerSkew is { } skew ? Math.Max(0, skew(TimeSpan.FromTicks(ticks)).Ticks) : ticks;

    private void Remove(ManualTimer timer)
    {
        lock (_gate)
        {
            _timers.Remove(timer);
        }
    }

    private sealed class ManualTimer(ManualTimeProvider owner, TimerCallback callback, object? state) : ITimer
    {
        public long? DueAt { get; set; }

        public long? Period { get; private set; }

        public bool Change(TimeSpan dueTime, TimeSpan period)
        {
            lock (owner._gate)
            {
                DueAt = dueTime == Timeout.InfiniteTimeSpan ? null : owner._now + owner.Skew(dueTime.Ticks);
                Period = period == Timeout.InfiniteTimeSpan || period == TimeSpan.Zero ? null : period.Ticks;
            }

            return true;
        }

        public void Fire() => callback(state);

        public void Dispose() => owner.Remove(this);

        public ValueTask DisposeAsync()
        {
            Dispose();
            return default;
        }
    }
}

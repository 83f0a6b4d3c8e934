using System.Threading.RateLimiting;

namespace Millrace.Parallel.RateLimit;

/// <summary>
/// A token bucket on an injected <see cref="TimeProvider"/>: <see cref="TokenBucketRateLimiter"/> measures
/// replenishment against the real clock even when replenished by hand, so a fake clock could not drive it.
/// Tokens accrue in whole periods from the clock's timestamps; waiters are served first come, first served,
/// woken by a one-shot timer of the same clock that is armed for the moment the next period ends. Timers may
/// fire a little early or late: an early one finds no period elapsed and is re-armed for the remainder only
/// (re-arming for a whole period would make the waiters sleep through a period and lose its tokens), and a
/// late one is re-armed against the period boundaries, not its own firing time, so lateness never accumulates.
/// </summary>
internal sealed class TokenBucketLimiter : ReplenishingRateLimiter
{
    private readonly RateLimitOptions _options;
    private readonly TimeProvider _time;
    private readonly long _periodTicks;
    private readonly Lock _gate = new();
    private readonly Queue<Waiter> _waiters = new();
    private readonly ITimer _timer;
    private long _tokens;
    private long _lastRefill;
    private bool _timerArmed;
    private bool _disposed;

    public TokenBucketLimiter(RateLimitOptions options, TimeProvider time)
    {
        _options = options;
        _time = time;
        _periodTicks = Math.Max(1, (long)(options.Period.TotalSeconds * time.TimestampFrequency));
        _tokens = options.EffectiveBurst;
        _lastRefill = time.GetTimestamp();
        _timer = time.CreateTimer(static state => ((TokenBucketLimiter)state!).ServeWaiters(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    public override TimeSpan? IdleDuration => null;

    public override bool IsAutoReplenishing => true;

    public override TimeSpan ReplenishmentPeriod => _options.Period;

    public override bool TryReplenish() => false;

    public override RateLimiterStatistics? GetStatistics()
    {
        lock (_gate)
        {
            Refill();
            return new RateLimiterStatistics { CurrentAvailablePermits = _tokens, CurrentQueuedCount = _waiters.Count };
        }
    }

    protected override RateLimitLease AttemptAcquireCore(int permitCount)
    {
        lock (_gate)
        {
            Refill();
            if (_waiters.Count == 0 && _tokens >= permitCount)
            {
                _tokens -= permitCount;
                return Lease.Acquired;
            }

            return Lease.Rejected;
        }
    }

    protected override ValueTask<RateLimitLease> AcquireAsyncCore(int permitCount, CancellationToken cancellationToken)
    {
        Waiter waiter;
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            Refill();
            if (_waiters.Count == 0 && _tokens >= permitCount)
            {
                _tokens -= permitCount;
                return new ValueTask<RateLimitLease>(Lease.Acquired);
            }

            waiter = new Waiter(permitCount);
            _waiters.Enqueue(waiter);
            ArmTimer();
        }

        if (cancellationToken.CanBeCanceled)
        {
            waiter.Registration = cancellationToken.Register(
                static state => ((Waiter)state!).Completion.TrySetCanceled(),
                waiter);
        }

        return new ValueTask<RateLimitLease>(waiter.Completion.Task);
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _timer.Dispose();
            lock (_gate)
            {
                _disposed = true;
                while (_waiters.TryDequeue(out var waiter))
                {
                    waiter.Completion.TrySetResult(Lease.Rejected);
                }
            }
        }

        base.Dispose(disposing);
    }

    private void Refill()
    {
        var now = _time.GetTimestamp();
        var periods = (now - _lastRefill) / _periodTicks;
        if (periods > 0)
        {
            _lastRefill += periods * _periodTicks;
            _tokens = Math.Min(_options.EffectiveBurst, _tokens + (periods * _options.PermitsPerPeriod));
        }
    }

    private void ServeWaiters()
    {
        lock (_gate)
        {
            Refill();
            while (_waiters.TryPeek(out var waiter))
            {
                if (waiter.Completion.Task.IsCompleted)
                {
                    _waiters.Dequeue();
                    continue;
                }

                if (_tokens < waiter.Permits)
                {
                    break;
                }

                _waiters.Dequeue();
                if (waiter.Completion.TrySetResult(Lease.Acquired))
                {
                    _tokens -= waiter.Permits;
                }

                waiter.Registration.Dispose();
            }

            _timerArmed = false;
            if (_waiters.Count > 0 && !_disposed)
            {
                ArmTimer();
            }
        }
    }

    /// <summary>Arms the timer for the end of the current period, measured from the bucket's last refill, not from now.</summary>
    private void ArmTimer()
    {
        if (_timerArmed)
        {
            return;
        }

        // Rounded up, so rounding never makes the timer early; at least one tick, so a zero wait still goes through the timer.
        var remaining = _lastRefill + _periodTicks - _time.GetTimestamp();
        var dueTicks = (long)Math.Ceiling(Math.Max(1, remaining) * (double)TimeSpan.TicksPerSecond / _time.TimestampFrequency);
        _timerArmed = true;
        _timer.Change(TimeSpan.FromTicks(Math.Max(1, dueTicks)), Timeout.InfiniteTimeSpan);
    }

    private sealed class Waiter(int permits)
    {
        public int Permits { get; } = permits;

        public TaskCompletionSource<RateLimitLease> Completion { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public CancellationTokenRegistration Registration { get; set; }
    }

    private sealed class Lease(bool acquired) : RateLimitLease
    {
        public static readonly Lease Acquired = new(true);
        public static readonly Lease Rejected = new(false);

        public override bool IsAcquired { get; } = acquired;

        public override IEnumerable<string> MetadataNames => [];

        public override bool TryGetMetadata(string metadataName, out object? metadata)
        {
            metadata = null;
            return false;
        }
    }
}

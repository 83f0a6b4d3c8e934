using System.Threading.RateLimiting;

namespace Millrace.Cluster.RateLimit;

/// <summary>
/// A silo's end of a cluster-wide rate limit: permits come from the limit's grain in small batches and are handed out
/// locally, one per attempt, so an attempt waits on the network only when the silo's batch is spent. One refill call is
/// in flight at a time; every waiter shares it.
/// </summary>
internal sealed class ClusterRateLimiter(IRateLimitGrain grain, string silo, ClusterRateLimitOptions options, TimeProvider time) : RateLimiter
{
    private readonly Lock _gate = new();
    private int _available;
    private Task? _refill;
    private long _idleSince = time.GetTimestamp();

    public override TimeSpan? IdleDuration => _available > 0 ? time.GetElapsedTime(_idleSince) : null;

    public override RateLimiterStatistics? GetStatistics() => new() { CurrentAvailablePermits = _available };

    protected override RateLimitLease AttemptAcquireCore(int permitCount)
    {
        lock (_gate)
        {
            return TakeLocked(permitCount) ? Lease.Acquired : Lease.Refused;
        }
    }

    protected override async ValueTask<RateLimitLease> AcquireAsyncCore(int permitCount, CancellationToken cancellationToken)
    {
        while (true)
        {
            Task refill;
            lock (_gate)
            {
                if (TakeLocked(permitCount))
                {
                    return Lease.Acquired;
                }

                // Started under the lock, and its end clears it under the lock, so it is never cleared before it is set.
                refill = _refill ??= Task.Run(RefillAsync, CancellationToken.None);
            }

            await refill.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    private bool TakeLocked(int permitCount)
    {
        if (_available < permitCount)
        {
            return false;
        }

        _available -= permitCount;
        _idleSince = time.GetTimestamp();
        return true;
    }

    private async Task RefillAsync()
    {
        try
        {
            // Ask for a tenth of a second's worth; the grain splits it between the silos asking.
            var batch = (int)Math.Clamp(options.PerSecond / 10, 1, options.PermitsPerPeriod);
            while (true)
            {
                var grant = await grain.AcquireAsync(silo, batch, options).ConfigureAwait(false);
                if (grant.Permits > 0)
                {
                    lock (_gate)
                    {
                        _available += grant.Permits;
                    }

                    return;
                }

                await Task.Delay(grant.RetryAfter, time).ConfigureAwait(false);
            }
        }
        finally
        {
            lock (_gate)
            {
                _refill = null;
            }
        }
    }

    private sealed class Lease(bool acquired) : RateLimitLease
    {
        public static readonly Lease Acquired = new(true);
        public static readonly Lease Refused = new(false);

        public override bool IsAcquired => acquired;

        public override IEnumerable<string> MetadataNames => [];

        public override bool TryGetMetadata(string metadataName, out object? metadata)
        {
            metadata = null;
            return false;
        }
    }
}

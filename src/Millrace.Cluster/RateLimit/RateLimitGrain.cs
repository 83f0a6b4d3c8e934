using Microsoft.Extensions.DependencyInjection;
using Millrace.Cluster.Hosting;

namespace Millrace.Cluster.RateLimit;

/// <summary>
/// A token bucket for the whole cluster, in memory. Silos take their permits in shares of a tenth of a second, split
/// between the silos that asked in the last second, so the permits that wait unused at silos never add up to more than a
/// tenth. The bucket holds two tenths: a silo that comes back for its next share a little late (a timer here fires up to
/// a few milliseconds after it is due) finds the permits that accrued meanwhile instead of a full bucket that dropped
/// them, which cost up to 10% of the rate with one tenth. Over 5 seconds the two together allow the cluster 0.3 s of
/// extra permits at most: 6%, inside the documented ±10%. Not persisted: after a restart the bucket starts full.
/// </summary>
internal sealed class RateLimitGrain([FromKeyedServices(ClusterHostingConstants.TimeProviderKey)] TimeProvider time) : Grain, IRateLimitGrain
{
    private static readonly TimeSpan Share = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan AskerMemory = TimeSpan.FromSeconds(1);

    private readonly Dictionary<string, long> _lastAsked = new(StringComparer.Ordinal);
    private double _tokens = double.NaN;
    private long _refilledAt;

    public Task<RateGrant> AcquireAsync(string silo, int requested, ClusterRateLimitOptions options)
    {
        var now = time.GetTimestamp();
        var share = Math.Max(1, options.PerSecond * Share.TotalSeconds);
        var capacity = 2 * share;
        _tokens = double.IsNaN(_tokens)
            ? capacity
            : Math.Min(capacity, _tokens + (options.PerSecond * time.GetElapsedTime(_refilledAt, now).TotalSeconds));
        _refilledAt = now;

        _lastAsked[silo] = now;
        foreach (var (asker, at) in _lastAsked)
        {
            if (time.GetElapsedTime(at, now) > AskerMemory)
            {
                _lastAsked.Remove(asker);
            }
        }

        // A silo gets its whole share or nothing yet: granting the sliver an empty bucket holds would send every silo back
        // for one permit at a time, a grain call per attempt, just when the limit is busiest.
        var wanted = Math.Min(requested, Math.Max(1, (int)(share / _lastAsked.Count)));
        if (_tokens < wanted)
        {
            return Task.FromResult(new RateGrant(0, TimeSpan.FromSeconds((wanted - _tokens) / options.PerSecond)));
        }

        _tokens -= wanted;
        return Task.FromResult(new RateGrant(wanted, TimeSpan.Zero));
    }
}

using Microsoft.Extensions.DependencyInjection;
using Millrace.Cluster.Jobs;

namespace Millrace.Cluster.Grains;

/// <summary>
/// A token bucket for the whole cluster, in memory: it holds at most a tenth of a second of permits, so a burst after
/// a quiet spell is small, and it splits that tenth between the silos that asked in the last second, so the permits
/// that wait unused at silos never add up to more than another tenth. Over 5 seconds the two together allow the cluster
/// 0.2 s of extra permits at most: 4%, inside the documented ±10%. Not persisted: after a restart the bucket starts full.
/// </summary>
internal sealed class RateLimitGrain(IServiceProvider services) : Grain, IRateLimitGrain
{
    private static readonly TimeSpan Share = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan AskerMemory = TimeSpan.FromSeconds(1);

    private readonly TimeProvider _time = services.GetService<TimeProvider>() ?? TimeProvider.System;
    private readonly Dictionary<string, long> _lastAsked = new(StringComparer.Ordinal);
    private double _tokens = double.NaN;
    private long _refilledAt;

    public Task<RateGrant> AcquireAsync(string silo, int requested, ClusterRateLimitOptions options)
    {
        var now = _time.GetTimestamp();
        var capacity = Math.Max(1, options.PerSecond * Share.TotalSeconds);
        _tokens = double.IsNaN(_tokens)
            ? capacity
            : Math.Min(capacity, _tokens + (options.PerSecond * _time.GetElapsedTime(_refilledAt, now).TotalSeconds));
        _refilledAt = now;

        _lastAsked[silo] = now;
        foreach (var (asker, at) in _lastAsked)
        {
            if (_time.GetElapsedTime(at, now) > AskerMemory)
            {
                _lastAsked.Remove(asker);
            }
        }

        // A silo gets its whole share or nothing yet: granting the sliver an empty bucket holds would send every silo back
        // for one permit at a time, a grain call per attempt, just when the limit is busiest.
        var wanted = Math.Min(requested, Math.Max(1, (int)(capacity / _lastAsked.Count)));
        if (_tokens < wanted)
        {
            return Task.FromResult(new RateGrant(0, TimeSpan.FromSeconds((wanted - _tokens) / options.PerSecond)));
        }

        _tokens -= wanted;
        return Task.FromResult(new RateGrant(wanted, TimeSpan.Zero));
    }
}

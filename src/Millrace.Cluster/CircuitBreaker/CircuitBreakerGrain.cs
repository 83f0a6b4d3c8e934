using Microsoft.Extensions.DependencyInjection;
using Millrace.Cluster.Hosting;

namespace Millrace.Cluster.CircuitBreaker;

/// <summary>
/// The shared breaker: which silos use it (they reported within the sampling window) and which of them last said their
/// local breaker was open. It opens when at least <see cref="ClusterCircuitBreakerOptions.QuorumSilos"/> of them did, or
/// all of them when fewer use it, stays open for the break, then forgets the local states so the next calls probe. In
/// memory: after a restart it starts closed, and the silos' next reports rebuild it.
/// </summary>
internal sealed class CircuitBreakerGrain([FromKeyedServices(ClusterHostingConstants.TimeProviderKey)] TimeProvider time) : Grain, ICircuitBreakerGrain
{
    private readonly Dictionary<string, DateTimeOffset> _heardFrom = new(StringComparer.Ordinal);
    private readonly Dictionary<string, DateTimeOffset> _locallyOpen = new(StringComparer.Ordinal);
    private DateTimeOffset? _openUntil;

    public Task<DateTimeOffset?> ReportAsync(string silo, bool locallyOpen, ClusterCircuitBreakerOptions options)
    {
        var now = time.GetUtcNow();
        if (_openUntil is { } until && until <= now)
        {
            // The break is over: the calls from here on are the probe.
            _openUntil = null;
            _locallyOpen.Clear();
        }

        _heardFrom[silo] = now;
        if (locallyOpen)
        {
            _locallyOpen[silo] = now;
        }
        else
        {
            _locallyOpen.Remove(silo);
        }

        Forget(_heardFrom, now - options.SamplingDuration);
        Forget(_locallyOpen, now - options.SamplingDuration);
        if (_openUntil is null && _locallyOpen.Count >= Math.Min(options.QuorumSilos, _heardFrom.Count))
        {
            _openUntil = now + options.BreakDuration;
        }

        return Task.FromResult(_openUntil);
    }

    private static void Forget(Dictionary<string, DateTimeOffset> silos, DateTimeOffset before)
    {
        foreach (var (silo, at) in silos)
        {
            if (at < before)
            {
                silos.Remove(silo);
            }
        }
    }
}

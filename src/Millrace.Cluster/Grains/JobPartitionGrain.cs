using Microsoft.Extensions.DependencyInjection;
using Millrace.Cluster.Hosting;
using Millrace.Cluster.Jobs;

namespace Millrace.Cluster.Grains;

/// <summary>
/// One partition of a job: its items (persisted once, at submission) and their outcomes (persisted whenever a lease
/// completes). Leases live in memory only: when the partition's silo dies, its leases die with it, and every item without
/// an outcome is free again once the partition is activated elsewhere. A silo still running such an item may still report
/// it, and is heard as long as nobody reported it first.
/// </summary>
internal sealed class JobPartitionGrain(
    [PersistentState("items", ClusterHostingConstants.StorageName)] IPersistentState<JobPartitionGrain.ItemsRecord> items,
    [PersistentState("outcomes", ClusterHostingConstants.StorageName)] IPersistentState<JobPartitionGrain.OutcomesRecord> outcomes,
    IGrainFactory grains,
    IServiceProvider services) : Grain, IJobPartitionGrain
{
    // A test cluster registers a fake clock; a silo that registers none uses the system's.
    private readonly TimeProvider _time = services.GetService<TimeProvider>() ?? TimeProvider.System;
    private readonly Dictionary<Guid, ActiveLease> _leases = [];
    private bool[] _done = [];
    private bool[] _leased = [];
    private int _doneCount;
    private int _failed;
    private int _cursor;

    public override Task OnActivateAsync(CancellationToken cancellationToken)
    {
        Rebuild();
        ReportIfDone();
        return Task.CompletedTask;
    }

    public async Task InitializeAsync(JobDefinition definition, int partition, long firstIndex, IReadOnlyList<WorkItem> workItems)
    {
        if (items.State.Definition is not null)
        {
            return;
        }

        items.State = new ItemsRecord { Definition = definition, Partition = partition, FirstIndex = firstIndex, Items = [.. workItems] };
        await items.WriteStateAsync().ConfigureAwait(true);
        Rebuild();
    }

    public Task<Lease?> TakeLeaseAsync(string silo, int max)
    {
        if (items.State.Definition is not { } definition || outcomes.State.Cancelled || _doneCount == _done.Length)
        {
            return Task.FromResult<Lease?>(null);
        }

        var now = _time.GetUtcNow();
        ExpireLeases(now);
        var taken = new List<LeasedItem>(Math.Min(max, _done.Length));
        for (; _cursor < _done.Length && taken.Count < max; _cursor++)
        {
            if (!_done[_cursor] && !_leased[_cursor])
            {
                _leased[_cursor] = true;
                taken.Add(new LeasedItem(items.State.FirstIndex + _cursor, items.State.Items[_cursor]));
            }
        }

        if (taken.Count == 0)
        {
            return Task.FromResult<Lease?>(null);
        }

        var lease = new Lease(Guid.NewGuid(), taken, now + definition.Options.LeaseTimeout);
        _leases.Add(lease.Id, new ActiveLease(silo, lease.Expires, [.. taken.Select(t => (int)(t.Index - items.State.FirstIndex))]));
        return Task.FromResult<Lease?>(lease);
    }

    public Task<bool> RenewAsync(Guid leaseId)
    {
        var now = _time.GetUtcNow();
        ExpireLeases(now);
        if (outcomes.State.Cancelled || !_leases.TryGetValue(leaseId, out var lease))
        {
            return Task.FromResult(false);
        }

        _leases[leaseId] = lease with { Expires = now + items.State.Definition!.Options.LeaseTimeout };
        return Task.FromResult(true);
    }

    public async Task CompleteAsync(Guid leaseId, string silo, IReadOnlyList<ItemReport> reports)
    {
        if (items.State.Definition is null)
        {
            return;
        }

        if (_leases.Remove(leaseId, out var lease))
        {
            Release(lease);
        }

        var now = _time.GetUtcNow();
        var recorded = false;
        foreach (var report in reports)
        {
            var position = report.Index - items.State.FirstIndex;
            if ((ulong)position >= (ulong)_done.Length || _done[position])
            {
                // Not this partition's, or already recorded: the first completion wins.
                continue;
            }

            var item = items.State.Items[(int)position];
            outcomes.State.Outcomes.Add(new JobItemOutcome(item.Key, report.Index, report.Error, silo, now));
            MarkDone((int)position, report.Error is not null);
            recorded = true;
        }

        if (recorded)
        {
            await outcomes.WriteStateAsync().ConfigureAwait(true);
            ReportIfDone();
        }
    }

    public Task<PartitionCounts> GetCountsAsync()
    {
        var bySilo = outcomes.State.Outcomes.GroupBy(o => o.Silo, StringComparer.Ordinal).ToDictionary(g => g.Key, g => (long)g.Count(), StringComparer.Ordinal);
        var leased = _leases.Values.Sum(l => l.Positions.Count(p => !_done[p]));
        return Task.FromResult(new PartitionCounts(_done.Length, leased, _doneCount - _failed, _failed, outcomes.State.Cancelled, bySilo));
    }

    public Task<IReadOnlyList<JobItemOutcome>> ReadOutcomesAsync(int from, int max)
    {
        var recorded = outcomes.State.Outcomes;
        var start = Math.Clamp(from, 0, recorded.Count);
        return Task.FromResult<IReadOnlyList<JobItemOutcome>>(recorded.GetRange(start, Math.Min(Math.Max(0, max), recorded.Count - start)));
    }

    public async Task CancelAsync()
    {
        if (outcomes.State.Cancelled)
        {
            return;
        }

        outcomes.State.Cancelled = true;
        _leases.Clear();
        await outcomes.WriteStateAsync().ConfigureAwait(true);
    }

    /// <summary>Builds the in-memory view from the persisted items and outcomes: every item without an outcome is free.</summary>
    private void Rebuild()
    {
        var count = items.State.Items.Count;
        _done = new bool[count];
        _leased = new bool[count];
        _doneCount = 0;
        _failed = 0;
        _cursor = 0;
        _leases.Clear();
        foreach (var outcome in outcomes.State.Outcomes)
        {
            MarkDone((int)(outcome.Index - items.State.FirstIndex), outcome.Error is not null);
        }
    }

    private void MarkDone(int position, bool failed)
    {
        _done[position] = true;
        _doneCount++;
        _failed += failed ? 1 : 0;
    }

    private void ExpireLeases(DateTimeOffset now)
    {
        List<Guid>? expired = null;
        foreach (var (id, lease) in _leases)
        {
            if (lease.Expires <= now)
            {
                (expired ??= []).Add(id);
            }
        }

        foreach (var id in expired ?? [])
        {
            _leases.Remove(id, out var lease);
            Release(lease!);
        }
    }

    private void Release(ActiveLease lease)
    {
        foreach (var position in lease.Positions)
        {
            _leased[position] = false;
            _cursor = Math.Min(_cursor, position);
        }
    }

    private void ReportIfDone()
    {
        if (items.State.Definition is { } definition && _done.Length > 0 && _doneCount == _done.Length)
        {
            grains.GetGrain<IJobGrain>(definition.JobId).PartitionDoneAsync(items.State.Partition).Ignore();
        }
    }

    private sealed record ActiveLease(string Silo, DateTimeOffset Expires, int[] Positions);

    /// <summary>A partition's items, written once when the job is submitted.</summary>
    [GenerateSerializer]
    [Alias("millrace.partition-items")]
    internal sealed class ItemsRecord
    {
        [Id(0)] public JobDefinition? Definition { get; init; }

        [Id(1)] public int Partition { get; init; }

        [Id(2)] public long FirstIndex { get; init; }

        [Id(3)] public List<WorkItem> Items { get; init; } = [];
    }

    /// <summary>A partition's outcomes in the order they were recorded, and whether its job was cancelled.</summary>
    [GenerateSerializer]
    [Alias("millrace.partition-outcomes")]
    internal sealed class OutcomesRecord
    {
        [Id(0)] public List<JobItemOutcome> Outcomes { get; init; } = [];

        [Id(1)] public bool Cancelled { get; set; }
    }
}

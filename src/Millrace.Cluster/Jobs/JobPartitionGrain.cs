using Microsoft.Extensions.DependencyInjection;
using Millrace.Cluster.Hosting;
using Orleans.Storage;

namespace Millrace.Cluster.Jobs;

/// <summary>
/// One partition of a job: its items (persisted once, at submission) and their outcomes, persisted in pages of
/// <see cref="OutcomesPageSize"/> as leases complete, so a completion writes the page it fills, not every outcome so far.
/// Leases live in memory only: when the partition's silo dies, its leases die with it, and every item without an outcome is
/// free again once the partition is activated elsewhere. A silo still running such an item may still report it, and is
/// heard as long as nobody reported it first.
/// </summary>
internal sealed class JobPartitionGrain(
    [PersistentState("items", ClusterHostingConstants.StorageName)] IPersistentState<JobPartitionGrain.ItemsRecord> items,
    [PersistentState("status", ClusterHostingConstants.StorageName)] IPersistentState<JobPartitionGrain.StatusRecord> status,
    IGrainFactory grains,
    [FromKeyedServices(ClusterHostingConstants.TimeProviderKey)] TimeProvider time,
    [FromKeyedServices(ClusterHostingConstants.StorageName)] IGrainStorage storage) : Grain, IJobPartitionGrain
{
    /// <summary>How many outcomes one persisted page holds; pages fill in order, so only the last is ever short.</summary>
    internal const int OutcomesPageSize = 64;

    private readonly Dictionary<Guid, ActiveLease> _leases = [];
    private readonly List<JobItemOutcome> _outcomes = [];
    private readonly List<GrainState<OutcomesPage>> _pages = [];
    private readonly Dictionary<string, long> _completedBySilo = new(StringComparer.Ordinal);
    private bool[] _done = [];
    private bool[] _leased = [];
    private int _doneCount;
    private int _failed;
    private int _cursor;

    public override async Task OnActivateAsync(CancellationToken cancellationToken)
    {
        // Every page before the last is full: reading stops at the first short or missing one.
        for (var number = 0; ; number++)
        {
            var page = new GrainState<OutcomesPage>(new OutcomesPage());
            await storage.ReadStateAsync(PageName(number), this.GetGrainId(), page).ConfigureAwait(true);
            if (!page.RecordExists || page.State is null)
            {
                break;
            }

            _pages.Add(page);
            _outcomes.AddRange(page.State.Outcomes);
            if (page.State.Outcomes.Count < OutcomesPageSize)
            {
                break;
            }
        }

        Rebuild();
        ReportToJob();
    }

    public async Task InitializeAsync(JobDefinition definition, int partition, long firstIndex, IReadOnlyList<WorkItem> workItems)
    {
        if (items.State.Definition is not null)
        {
            return;
        }

        items.State = new ItemsRecord { Definition = definition, Partition = partition, FirstIndex = firstIndex, Items = [.. workItems] };
        await items.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
        Rebuild();
    }

    public Task<Lease?> TakeLeaseAsync(string silo, int max)
    {
        if (items.State.Definition is not { } definition || status.State.Cancelled || _doneCount == _done.Length)
        {
            return Task.FromResult<Lease?>(null);
        }

        var now = time.GetUtcNow();
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
        var now = time.GetUtcNow();
        ExpireLeases(now);
        if (status.State.Cancelled || !_leases.TryGetValue(leaseId, out var lease))
        {
            return Task.FromResult(false);
        }

        _leases[leaseId] = lease with { Expires = now + items.State.Definition!.Options.LeaseTimeout };
        return Task.FromResult(true);
    }

    public async Task CompleteAsync(Guid leaseId, string silo, IReadOnlyList<ItemReport> reports)
    {
        if (items.State.Definition is null || status.State.Cancelled)
        {
            // A stopped job records nothing more: a watcher that saw it end has read every outcome it has.
            _leases.Remove(leaseId);
            return;
        }

        if (_leases.Remove(leaseId, out var lease))
        {
            Release(lease);
        }

        var now = time.GetUtcNow();
        var before = _outcomes.Count;
        foreach (var report in reports)
        {
            var position = report.Index - items.State.FirstIndex;
            if ((ulong)position >= (ulong)_done.Length || _done[position])
            {
                // Not this partition's, or already recorded: the first completion wins.
                continue;
            }

            var item = items.State.Items[(int)position];
            var outcome = new JobItemOutcome(item.Key, report.Index, report.Error, silo, now, report.Error is null ? report.Result : null);
            _outcomes.Add(outcome);
            MarkDone(outcome);
        }

        if (_outcomes.Count > before)
        {
            await WritePagesFromAsync(before).ConfigureAwait(true);
            ReportToJob();
        }
    }

    public Task<PartitionCounts> GetCountsAsync()
    {
        var bySilo = new Dictionary<string, long>(_completedBySilo, StringComparer.Ordinal);
        var leased = _leases.Values.Sum(l => l.Positions.Count(p => !_done[p]));
        return Task.FromResult(new PartitionCounts(_done.Length, leased, _doneCount - _failed, _failed, status.State.Cancelled, bySilo));
    }

    public Task<IReadOnlyList<JobItemOutcome>> ReadOutcomesAsync(int from, int max)
    {
        var recorded = _outcomes;
        var start = Math.Clamp(from, 0, recorded.Count);
        return Task.FromResult<IReadOnlyList<JobItemOutcome>>(recorded.GetRange(start, Math.Min(Math.Max(0, max), recorded.Count - start)));
    }

    public async Task CancelAsync()
    {
        if (status.State.Cancelled)
        {
            return;
        }

        status.State.Cancelled = true;
        _leases.Clear();
        await status.WriteOrForgetAsync(DeactivateOnIdle).ConfigureAwait(true);
    }

    /// <summary>
    /// Persists the pages that hold outcomes from position <paramref name="first"/> on, in order, so a page is never on disk
    /// before the full ones ahead of it. A failed write deactivates the partition: the outcomes it held only in memory are
    /// forgotten with it, their items become free again, and nobody was shown them (reads wait for this call to end).
    /// </summary>
    private Task WritePagesFromAsync(int first) => PersistentStateWriting.WriteOrForgetAsync(
        async () =>
        {
            for (var number = first / OutcomesPageSize; number * OutcomesPageSize < _outcomes.Count; number++)
            {
                if (number == _pages.Count)
                {
                    _pages.Add(new GrainState<OutcomesPage>(new OutcomesPage()));
                }

                var start = number * OutcomesPageSize;
                _pages[number].State = new OutcomesPage { Outcomes = _outcomes.GetRange(start, Math.Min(OutcomesPageSize, _outcomes.Count - start)) };
                await storage.WriteStateAsync(PageName(number), this.GetGrainId(), _pages[number]).ConfigureAwait(true);
            }
        },
        DeactivateOnIdle);

    private static string PageName(int number) => string.Create(System.Globalization.CultureInfo.InvariantCulture, $"outcomes-{number}");

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
        _completedBySilo.Clear();
        foreach (var outcome in _outcomes)
        {
            MarkDone(outcome);
        }
    }

    private void MarkDone(JobItemOutcome outcome)
    {
        _done[outcome.Index - items.State.FirstIndex] = true;
        _doneCount++;
        _failed += outcome.Succeeded ? 0 : 1;
        _completedBySilo[outcome.Silo] = _completedBySilo.GetValueOrDefault(outcome.Silo) + 1;
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

    /// <summary>
    /// Tells the job when this partition holds every outcome, and, in a <see cref="Parallel.ErrorMode.FailFast"/> job, when
    /// it holds a failure (which stops the job). Both are one-way and may be lost with a silo: they are sent again after
    /// every recording and activation, and the job takes each once.
    /// </summary>
    private void ReportToJob()
    {
        if (items.State.Definition is not { } definition)
        {
            return;
        }

        if (definition.Options.ErrorMode == Parallel.ErrorMode.FailFast && _failed > 0 && !status.State.Cancelled)
        {
            grains.GetGrain<IJobGrain>(definition.JobId).ItemFailedAsync().Ignore();
        }

        if (_done.Length > 0 && _doneCount == _done.Length)
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

    /// <summary>Up to <see cref="OutcomesPageSize"/> of a partition's outcomes, in the order they were recorded.</summary>
    [GenerateSerializer]
    [Alias("millrace.partition-outcomes-page")]
    internal sealed class OutcomesPage
    {
        [Id(0)] public List<JobItemOutcome> Outcomes { get; init; } = [];
    }

    /// <summary>Whether a partition's job was cancelled.</summary>
    [GenerateSerializer]
    [Alias("millrace.partition-status")]
    internal sealed class StatusRecord
    {
        [Id(0)] public bool Cancelled { get; set; }
    }
}

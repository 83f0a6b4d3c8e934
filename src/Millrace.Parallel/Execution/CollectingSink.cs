namespace Millrace.Parallel.Execution;

/// <summary>
/// Collects results as items end. Each worker appends to a buffer of its own, allocated by that worker, so workers on
/// different cores never write the same cache line: with CPU-light items, results written side by side into one shared
/// array (each pair of neighbours ended by two workers) or a lock per append cost a run a tenth to a half of its time.
/// An ordered run puts the results in source order at the end, by direct placement when the indices are dense (every
/// item gave a result) and else by sorting. An unordered run returns them in true completion order: each result takes
/// a sequence number, the one write the workers share, and is placed by it at the end.
/// </summary>
internal sealed class CollectingSink<T> : ResultSink<T>
{
    private readonly Lock _registration = new();
    private readonly bool _ordered;
    private readonly int _initialCapacity;
    private WorkerBuffer?[] _buffers;
    private int _sequence;

    /// <summary>Initializes a sink.</summary>
    /// <param name="count">The source's count, when it knows it: it sizes each worker's first buffer.</param>
    /// <param name="workers">The most workers the run starts (<see cref="int.MaxValue"/> when unlimited); each is numbered below it.</param>
    /// <param name="ordered">Whether results are returned in source order; else in the order the items ended.</param>
    public CollectingSink(long? count, int workers, bool ordered)
    {
        _ordered = ordered;
        _initialCapacity = count is > 0 ? (int)Math.Clamp((count.Value / workers) + 1, 4, 1 << 20) : 16;
        _buffers = new WorkerBuffer?[Math.Min(workers, 16)];
    }

    public override void Accept(int worker, in ItemOutcome<T> outcome)
    {
        var buffers = Volatile.Read(ref _buffers);
        var buffer = (uint)worker < (uint)buffers.Length ? buffers[worker] : null;
        (buffer ?? Register(worker)).Add(outcome, _ordered ? 0 : Interlocked.Increment(ref _sequence) - 1);
    }

    /// <summary>
    /// A worker's first result: its buffer is made here, by that worker, and the table grows when the worker's number
    /// is past it (a run's workers are started one by one, so there are as many registrations as workers). A worker
    /// reading the table while another grows it still finds its own buffer: the old table keeps it, the new one has a copy.
    /// </summary>
    private WorkerBuffer Register(int worker)
    {
        lock (_registration)
        {
            if (worker >= _buffers.Length)
            {
                var grown = new WorkerBuffer?[(int)Math.Min(Array.MaxLength, Math.Max(worker + 1L, _buffers.Length * 2L))];
                _buffers.CopyTo(grown, 0);
                Volatile.Write(ref _buffers, grown);
            }

            return _buffers[worker] = new WorkerBuffer(_initialCapacity, withSequence: !_ordered);
        }
    }

    /// <summary>Returns the values of the collected items.</summary>
    /// <returns>The values.</returns>
    public T[] ToValues() => Merge(static outcome => outcome.Value);

    /// <summary>Returns the collected outcomes as item results.</summary>
    /// <returns>The results.</returns>
    public ItemResult<T>[] ToItemResults() => Merge(static outcome => outcome.ToItemResult());

    /// <summary>Called after every worker has stopped, so every buffer is complete and visible.</summary>
    private TOut[] Merge<TOut>(Func<ItemOutcome<T>, TOut> map)
    {
        var total = 0;
        long maxIndex = -1;
        foreach (var buffer in _buffers)
        {
            if (buffer is not null)
            {
                total += buffer.Count;
                maxIndex = Math.Max(maxIndex, buffer.MaxIndex);
            }
        }

        var merged = new TOut[total];
        if (!_ordered || maxIndex == total - 1)
        {
            // Unordered: sequence numbers are dense by construction. Ordered: indices are unique, so at most the count
            // and all below it means each position is taken exactly once.
            foreach (var buffer in _buffers)
            {
                buffer?.PlaceInto(merged, map, _ordered);
            }

            return merged;
        }

        var outcomes = new ItemOutcome<T>[total];
        var next = 0;
        foreach (var buffer in _buffers)
        {
            next += buffer?.CopyTo(outcomes, next) ?? 0;
        }

        Array.Sort(outcomes, static (a, b) => a.Index.CompareTo(b.Index));
        for (var i = 0; i < outcomes.Length; i++)
        {
            merged[i] = map(outcomes[i]);
        }

        return merged;
    }

    /// <summary>One worker's results, in the order it ended them.</summary>
    private sealed class WorkerBuffer(int capacity, bool withSequence)
    {
        private ItemOutcome<T>[] _outcomes = new ItemOutcome<T>[capacity];
        private int[] _sequence = withSequence ? new int[capacity] : [];

        public int Count { get; private set; }

        public long MaxIndex { get; private set; } = -1;

        public void Add(in ItemOutcome<T> outcome, int sequence)
        {
            if (Count == _outcomes.Length)
            {
                Array.Resize(ref _outcomes, _outcomes.Length * 2);
                if (withSequence)
                {
                    Array.Resize(ref _sequence, _outcomes.Length);
                }
            }

            _outcomes[Count] = outcome;
            if (withSequence)
            {
                _sequence[Count] = sequence;
            }

            MaxIndex = Math.Max(MaxIndex, outcome.Index);
            Count++;
        }

        /// <summary>Puts each result at its index (ordered) or its sequence number (unordered).</summary>
        public void PlaceInto<TOut>(TOut[] merged, Func<ItemOutcome<T>, TOut> map, bool byIndex)
        {
            for (var i = 0; i < Count; i++)
            {
                merged[byIndex ? (int)_outcomes[i].Index : _sequence[i]] = map(_outcomes[i]);
            }
        }

        public int CopyTo(ItemOutcome<T>[] outcomes, int start)
        {
            _outcomes.AsSpan(0, Count).CopyTo(outcomes.AsSpan(start));
            return Count;
        }
    }
}

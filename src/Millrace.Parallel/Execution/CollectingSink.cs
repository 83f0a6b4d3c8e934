namespace Millrace.Parallel.Execution;

/// <summary>
/// Collects results into one list, appended under a lock as items end, so an unordered run returns them in true
/// completion order; an ordered run puts them in source order once at the end: by direct placement when the indices
/// are dense (every item succeeded), else by sorting. The lock is held for one append, which costs far less than
/// the item around it, and the list is sized from the source's count when it is known, whatever the parallelism.
/// </summary>
internal sealed class CollectingSink<T> : ResultSink<T>
{
    private readonly List<ItemOutcome<T>> _outcomes;
    private readonly Lock _gate = new();

    public CollectingSink(long? count) => _outcomes = new List<ItemOutcome<T>>((int)Math.Min(count ?? 0, Array.MaxLength));

    public override void Accept(in ItemOutcome<T> outcome)
    {
        lock (_gate)
        {
            _outcomes.Add(outcome);
        }
    }

    /// <summary>Returns the values of the collected items.</summary>
    /// <param name="ordered">Whether to put them in source order; else they are in the order the items ended.</param>
    /// <returns>The values.</returns>
    public T[] ToValues(bool ordered)
    {
        var outcomes = Merge(ordered);
        var values = new T[outcomes.Length];
        for (var i = 0; i < outcomes.Length; i++)
        {
            values[i] = outcomes[i].Value;
        }

        return values;
    }

    /// <summary>Returns the collected outcomes as item results.</summary>
    /// <param name="ordered">Whether to put them in source order; else they are in the order the items ended.</param>
    /// <returns>The results.</returns>
    public ItemResult<T>[] ToItemResults(bool ordered)
    {
        var outcomes = Merge(ordered);
        var results = new ItemResult<T>[outcomes.Length];
        for (var i = 0; i < outcomes.Length; i++)
        {
            results[i] = outcomes[i].ToItemResult();
        }

        return results;
    }

    /// <summary>Called after every worker has stopped, so no lock is needed.</summary>
    private ItemOutcome<T>[] Merge(bool ordered)
    {
        var count = _outcomes.Count;
        if (!ordered)
        {
            return [.. _outcomes];
        }

        long maxIndex = -1;
        foreach (var outcome in _outcomes)
        {
            maxIndex = Math.Max(maxIndex, outcome.Index);
        }

        var merged = new ItemOutcome<T>[count];
        if (maxIndex == count - 1)
        {
            foreach (var outcome in _outcomes)
            {
                merged[(int)outcome.Index] = outcome;
            }

            return merged;
        }

        _outcomes.CopyTo(merged);
        Array.Sort(merged, static (a, b) => a.Index.CompareTo(b.Index));
        return merged;
    }
}

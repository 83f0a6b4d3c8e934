namespace Millrace.Parallel.Execution;

/// <summary>
/// Collects results in per-worker lists, so workers never contend, and merges them once at the end: by
/// direct placement when the indices are dense (every item succeeded), else by sorting.
/// </summary>
internal sealed class CollectingSink<T> : ResultSink<T>
{
    private readonly List<ItemOutcome<T>>?[] _perWorker;

    public CollectingSink(int workers) => _perWorker = new List<ItemOutcome<T>>?[workers];

    public override void Accept(int worker, in ItemOutcome<T> outcome) =>
        (_perWorker[worker] ??= []).Add(outcome);

    /// <summary>Returns the values of the collected items.</summary>
    /// <param name="ordered">Whether to put them in source order; else they stay in rough completion order.</param>
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
    /// <param name="ordered">Whether to put them in source order.</param>
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

    private ItemOutcome<T>[] Merge(bool ordered)
    {
        var count = 0;
        long maxIndex = -1;
        foreach (var list in _perWorker)
        {
            if (list is null)
            {
                continue;
            }

            count += list.Count;
            foreach (var outcome in list)
            {
                maxIndex = Math.Max(maxIndex, outcome.Index);
            }
        }

        var merged = new ItemOutcome<T>[count];
        var dense = ordered && maxIndex == count - 1;
        var next = 0;
        foreach (var list in _perWorker)
        {
            if (list is null)
            {
                continue;
            }

            foreach (var outcome in list)
            {
                merged[dense ? (int)outcome.Index : next++] = outcome;
            }
        }

        if (ordered && !dense)
        {
            Array.Sort(merged, static (a, b) => a.Index.CompareTo(b.Index));
        }

        return merged;
    }
}

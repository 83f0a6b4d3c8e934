using System.Collections;

namespace Millrace.Parallel.Execution;

/// <summary>What a run needs to know of a batch to report its failure by source index.</summary>
internal interface IIndexedBatch
{
    /// <summary>Gets the source index of the batch's first item.</summary>
    long FirstIndex { get; }
}

/// <summary>A batch of source items with the source index of its first, so a failed batch is reported where its items are.</summary>
/// <typeparam name="T">The item type.</typeparam>
/// <param name="items">The items.</param>
/// <param name="firstIndex">The source index of the first item.</param>
internal sealed class IndexedBatch<T>(T[] items, long firstIndex) : IReadOnlyList<T>, IIndexedBatch
{
    public long FirstIndex => firstIndex;

    public int Count => items.Length;

    public T this[int index] => items[index];

    public IEnumerator<T> GetEnumerator() => ((IEnumerable<T>)items).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => items.GetEnumerator();
}

namespace Millrace.Parallel.Execution;

/// <summary>An item taken from a source with its index, or the end of the source.</summary>
internal readonly record struct SourceItem<T>(bool HasItem, T Item, long Index)
{
    public static SourceItem<T> End => default;
}

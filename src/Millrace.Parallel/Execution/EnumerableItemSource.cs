namespace Millrace.Parallel.Execution;

/// <summary>
/// A synchronous source, read by the workers themselves under a lock: an item is taken only when a worker
/// is ready to start it, so nothing is ever read ahead.
/// </summary>
internal sealed class EnumerableItemSource<T> : ItemSource<T>
{
    private readonly IEnumerable<T> _source;
    private readonly Lock _gate = new();
    private IEnumerator<T>? _enumerator;
    private long _next;
    private bool _ended;

    public EnumerableItemSource(IEnumerable<T> source)
    {
        _source = source;
        Count = source.TryGetNonEnumeratedCount(out var count) ? count : null;
    }

    public override long? Count { get; }

    public override ValueTask<SourceItem<T>> TakeAsync(CancellationToken cancellationToken)
    {
        lock (_gate)
        {
            if (_ended || cancellationToken.IsCancellationRequested)
            {
                return new(SourceItem<T>.End);
            }

            _enumerator ??= _source.GetEnumerator();
            try
            {
                if (_enumerator.MoveNext())
                {
                    return new(new SourceItem<T>(true, _enumerator.Current, _next++));
                }
            }
            catch
            {
                _ended = true;
                throw;
            }

            _ended = true;
            return new(SourceItem<T>.End);
        }
    }

    public override ValueTask StopAsync()
    {
        lock (_gate)
        {
            _ended = true;
            _enumerator?.Dispose();
            _enumerator = null;
        }

        return default;
    }
}

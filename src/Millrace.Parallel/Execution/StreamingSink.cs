using System.Threading.Channels;

namespace Millrace.Parallel.Execution;

/// <summary>
/// Hands results to a consumer through a channel, inside a window of <c>W</c> permits: a worker reserves a
/// permit before it takes an item, and the consumer returns it when it reads the result. Items are taken in
/// source order, so an ordered stream never holds more than <c>W</c> results behind a slow item, and a slow
/// consumer stops the workers instead of letting results pile up. The reorder buffer starts small and doubles up
/// to <c>W</c> only when results arrive that far ahead, so a large window costs nothing until it is used.
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Reliability", "CA1001:Types that own disposable fields should be disposable", Justification = "The window semaphore never creates its wait handle, so there is nothing to dispose.")]
internal sealed class StreamingSink<T> : ResultSink<T>
{
    private readonly SemaphoreSlim _window;
    private readonly Channel<ItemOutcome<T>> _output = Channel.CreateUnbounded<ItemOutcome<T>>(new UnboundedChannelOptions { SingleReader = true });
    private const int InitialSlots = 16;
    private readonly int _windowSize;
    private ItemOutcome<T>[]? _slots;
    private bool[]? _filled;
    private bool[]? _skipped;
    private readonly Lock _gate = new();
    private long _nextToEmit;

    public StreamingSink(int window, bool ordered)
    {
        _window = new SemaphoreSlim(window, window);
        _windowSize = window;
        if (ordered)
        {
            var slots = Math.Min(window, InitialSlots);
            _slots = new ItemOutcome<T>[slots];
            _filled = new bool[slots];
            _skipped = new bool[slots];
        }
    }

    public ChannelReader<ItemOutcome<T>> Reader => _output.Reader;

    public override ValueTask WaitForRoomAsync(CancellationToken cancellationToken)
    {
        var wait = _window.WaitAsync(cancellationToken);
        return wait.IsCompletedSuccessfully ? default : new ValueTask(wait);
    }

    public override void ReturnRoom() => _window.Release();

    /// <summary>Called by the consumer for each result it reads.</summary>
    public void OnConsumed() => _window.Release();

    public override void Accept(int worker, in ItemOutcome<T> outcome)
    {
        if (_slots is null)
        {
            _output.Writer.TryWrite(outcome);
            return;
        }

        Place(outcome.Index, outcome, skipped: false);
    }

    public override void Skip(long index)
    {
        if (_slots is null)
        {
            _window.Release();
            return;
        }

        Place(index, default, skipped: true);
    }

    public override void Complete() => _output.Writer.TryComplete();

    private void Place(long index, in ItemOutcome<T> outcome, bool skipped)
    {
        lock (_gate)
        {
            if (index - _nextToEmit >= _slots!.Length)
            {
                Grow(index - _nextToEmit + 1);
            }

            var slots = _slots;
            var slot = (int)(index % slots.Length);
            slots[slot] = outcome;
            _skipped![slot] = skipped;
            _filled![slot] = true;
            while (_filled[slot = (int)(_nextToEmit % slots.Length)])
            {
                _filled[slot] = false;
                if (_skipped[slot])
                {
                    _window.Release();
                }
                else
                {
                    _output.Writer.TryWrite(slots[slot]);
                }

                slots[slot] = default;
                _nextToEmit++;
            }
        }
    }

    /// <summary>Doubles the reorder buffer (up to the window) until it reaches <paramref name="needed"/> slots; the pending results keep their indices.</summary>
    private void Grow(long needed)
    {
        var length = _slots!.Length;
        var grown = length;
        while (grown < needed)
        {
            grown = (int)Math.Min(_windowSize, grown * 2L);
        }

        var slots = new ItemOutcome<T>[grown];
        var filled = new bool[grown];
        var skipped = new bool[grown];
        for (var index = _nextToEmit; index < _nextToEmit + length; index++)
        {
            int from = (int)(index % length), to = (int)(index % grown);
            slots[to] = _slots[from];
            filled[to] = _filled![from];
            skipped[to] = _skipped![from];
        }

        _slots = slots;
        _filled = filled;
        _skipped = skipped;
    }
}

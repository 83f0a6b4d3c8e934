using System.Threading.Channels;

namespace Millrace.Parallel.Execution;

/// <summary>
/// An asynchronous source, read by one pump into a bounded channel: the source runs ahead of the workers by at
/// most the channel's capacity, and a slow source overlaps with the work instead of stalling a worker.
/// </summary>
internal sealed class AsyncEnumerableItemSource<T> : ItemSource<T>
{
    private readonly IAsyncEnumerable<T> _source;
    private readonly Channel<SourceItem<T>> _queue;
    private IRunFeedback? _run;
    private Task _pump = Task.CompletedTask;

    public AsyncEnumerableItemSource(IAsyncEnumerable<T> source, int capacity)
    {
        _source = source;
        _queue = Channel.CreateBounded<SourceItem<T>>(new BoundedChannelOptions(capacity)
        {
            SingleWriter = true,
            FullMode = BoundedChannelFullMode.Wait,
        });
    }

    public override long? Count => null;

    public override void Start(IRunFeedback run, CancellationToken cancellationToken)
    {
        _run = run;
        _pump = PumpAsync(cancellationToken);
    }

    public override ValueTask<SourceItem<T>> TakeAsync(CancellationToken cancellationToken)
    {
        if (_queue.Reader.TryRead(out var item))
        {
            _run!.OnQueueDepthChanged(-1);
            return new(item);
        }

        return TakeSlowAsync(cancellationToken);
    }

    public override async ValueTask StopAsync()
    {
        await _pump.ConfigureAwait(false);
        while (_queue.Reader.TryRead(out var item))
        {
            _run!.OnQueueDepthChanged(-1);
            _run.OnUnstarted(item.Index);
        }
    }

    private async ValueTask<SourceItem<T>> TakeSlowAsync(CancellationToken cancellationToken)
    {
        while (await _queue.Reader.WaitToReadAsync(cancellationToken).ConfigureAwait(false))
        {
            if (_queue.Reader.TryRead(out var item))
            {
                _run!.OnQueueDepthChanged(-1);
                return item;
            }
        }

        return SourceItem<T>.End;
    }

    private async Task PumpAsync(CancellationToken cancellationToken)
    {
        // Yield first so Start returns to the run at once, whatever the source does synchronously.
        await Task.Yield();
        long index = 0;
        try
        {
            await foreach (var value in _source.WithCancellation(cancellationToken).ConfigureAwait(false))
            {
                var item = new SourceItem<T>(true, value, index++);
                try
                {
                    await _queue.Writer.WriteAsync(item, cancellationToken).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
                {
                    _run!.OnUnstarted(item.Index);
                    throw;
                }

                _run!.OnQueueDepthChanged(1);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The run is stopping; the items already queued are reported by StopAsync.
        }
#pragma warning disable CA1031 // Whatever the source throws ends the run with that exception.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            _run!.OnSourceFault(exception);
        }
        finally
        {
            _queue.Writer.TryComplete();
        }
    }
}

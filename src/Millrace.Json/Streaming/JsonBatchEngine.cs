using System.Buffers;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Text.Json.Serialization.Metadata;
using System.Threading.Channels;

namespace Millrace.Json.Streaming;

/// <summary>
/// The batch engine (the choice is <c>JsonItems.ReadThroughEngine</c>'s): <see cref="JsonStreamOptions.BindingWorkers"/>
/// above 1, but 2 over an array (<see cref="JsonAheadEngine{T}"/>):
/// one scanner finds the items' boundaries (the tokenizer's work, several times cheaper than binding) and copies them
/// into batches, <c>N - 1</c> workers bind the batches, and the consumer gets the results in order, item by item. The scanner is the <c>N</c>th worker: while a batch waits for
/// the others, it binds its next batch itself, in one pass as the one-worker path does.
/// </summary>
/// <remarks>
/// <para>
/// Batches start at one item and double up to <see cref="MaxBatchItems"/>, and at most <see cref="BatchesAhead"/> per
/// worker are in flight, so stopping after k items binds O(k) items plus a bounded few; a batch is also handed over
/// whenever the scanner waits for more bytes, so a slow source's items are not held back. Batches, their byte buffers
/// and their result arrays are reused, so an item costs no allocation beyond its bound value (and its error).
/// </para>
/// <para>
/// A worker binds each item the careful way (from its own bytes), and the scanner binds its own batches through the
/// one-worker path itself, so both give exactly that path's values and errors.
/// </para>
/// <para>
/// Why the scanner binds: finding an item's end is a large part of what binding it costs, and a worker's items are
/// found twice, once by the scanner and once by the binder, so with a scanner that only scanned, two binders on two
/// cores would stay well short of twice one worker's throughput. Binding a batch whenever the workers have some waiting
/// shares the work out by itself, whatever an item costs to bind.
/// </para>
/// </remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class JsonBatchEngine<T>
{
    // 64 items (about 64 KB of 1 KB records), few enough that the bound values waiting for the consumer die young:
    // larger batches keep more of them waiting, long enough to outlive the collections of the first generation and be
    // promoted, and the read pauses longer for the collector.
    private const int MaxBatchItems = 64;
    private const int MaxBatchBytes = 256 * 1024;
    private const int BatchesAhead = 2;

    // The scanner binds its next batch when this many wait for the workers. At 1 it would bind every other batch, more
    // than its share (it also finds the workers' items), and the workers would wait for it.
    private const int ScannerBindsAtWaiting = 2;

    private readonly JsonItemScanner _scanner;
    private readonly JsonInlineEngine<T> _reader;
    private readonly JsonItemBinder<T> _binder;
    private readonly Channel<Batch> _ordered;
    private readonly Channel<Batch> _work = Channel.CreateUnbounded<Batch>(new UnboundedChannelOptions { SingleWriter = true });
    private readonly ConcurrentQueue<Batch> _spare = new();
    private readonly int _scannerBindsAtWaiting;

    private JsonBatchEngine(JsonItemScanner scanner, JsonTypeInfo<T> typeInfo, int workers, int scannerBindsAtWaiting)
    {
        _scannerBindsAtWaiting = scannerBindsAtWaiting;
        _scanner = scanner;
        _reader = new JsonInlineEngine<T>(scanner, typeInfo);
        _binder = new JsonItemBinder<T>(typeInfo, scanner.RootPath);
        _ordered = Channel.CreateBounded<Batch>(new BoundedChannelOptions(BatchesAhead * workers) { SingleReader = true, SingleWriter = true });
    }

    /// <summary>Streams the items' results in order, binding them on <see cref="JsonStreamOptions.BindingWorkers"/> workers.</summary>
    /// <param name="utf8Json">The UTF-8 JSON source.</param>
    /// <param name="typeInfo">Type information for <typeparamref name="T"/>.</param>
    /// <param name="options">Format, path and limits.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>The items' results, in order.</returns>
    public static IAsyncEnumerable<Result<T>> ReadAsync(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, CancellationToken cancellationToken) =>
        ReadAsync(utf8Json, null, typeInfo, options, ScannerBindsAtWaiting, cancellationToken);

    /// <summary>Streams the rest of the items' results, from a scanner that has read some already.</summary>
    /// <param name="utf8Json">The UTF-8 JSON source <paramref name="scanner"/> reads.</param>
    /// <param name="scanner">The scanner; disposed when reading ends.</param>
    /// <param name="typeInfo">Type information for <typeparamref name="T"/>.</param>
    /// <param name="options">The options the scanner was made with.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>The rest of the items' results, in order.</returns>
    public static IAsyncEnumerable<Result<T>> ReadRestAsync(Stream utf8Json, JsonItemScanner scanner, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, CancellationToken cancellationToken) =>
        ReadAsync(utf8Json, scanner, typeInfo, options, ScannerBindsAtWaiting, cancellationToken);

    /// <summary>
    /// Streams the items' results as <see cref="ReadAsync(Stream, JsonTypeInfo{T}, JsonStreamOptions, CancellationToken)"/> does
    /// (from <paramref name="scanner"/> on, if any; otherwise from a scanner of its own, made for each enumeration), the
    /// scanner binding a batch whenever <paramref name="scannerBindsAtWaiting"/> wait for the workers (0: every batch;
    /// <see cref="int.MaxValue"/>: none), so tests can take either path at will.
    /// </summary>
    internal static async IAsyncEnumerable<Result<T>> ReadAsync(Stream utf8Json, JsonItemScanner? scanner, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, int scannerBindsAtWaiting, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var pipeline = new JsonBatchEngine<T>(scanner ?? JsonItemScanner.Create(utf8Json, options, typeInfo.Options), typeInfo, options.BindingWorkers, scannerBindsAtWaiting);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);

        // The scanner and N - 1 workers: N threads bind.
        var tasks = new Task[options.BindingWorkers];
        tasks[0] = Task.Run(() => pipeline.ScanAsync(stop.Token), CancellationToken.None);
        for (var i = 1; i < tasks.Length; i++)
        {
            tasks[i] = Task.Run(() => pipeline.BindAsync(stop.Token), CancellationToken.None);
        }

        try
        {
            while (await pipeline._ordered.Reader.WaitToReadAsync(stop.Token).ConfigureAwait(false))
            {
                while (pipeline._ordered.Reader.TryRead(out var batch))
                {
                    // With the stop token: a worker stopped by the caller's cancellation may leave this batch unbound.
                    await batch.Bound.Task.WaitAsync(stop.Token).ConfigureAwait(false);
                    for (var i = 0; i < batch.Count; i++)
                    {
                        stop.Token.ThrowIfCancellationRequested();
                        yield return batch.Results[i];
                    }

                    pipeline.Recycle(batch);
                }
            }
        }
        finally
        {
            // Early exit, cancellation or failure: stop the scanner and the workers, and wait for them, so that the
            // stream and the pooled buffers are no longer in use when the enumeration is over.
            await stop.CancelAsync().ConfigureAwait(false);
            // Neither the scanner nor a worker ends faulted: each reports its failure through the batches or the channel.
            await Task.WhenAll(tasks).ConfigureAwait(false);
            pipeline.Release();
        }
    }

    private async Task ScanAsync(CancellationToken cancellationToken)
    {
        try
        {
            await using (_scanner.ConfigureAwait(false))
            {
                var batch = Rent();
                var target = 1;
                while (true)
                {
                    // A batch is the scanner's to bind when the workers already have some waiting, which they bind while the
                    // scanner binds its own (Rent decides).
                    var result = default(Result<T>);
                    var step = batch.BoundByScanner ? _reader.TryRead(out result) : _scanner.Next();
                    switch (step)
                    {
                        case ScanStep.Item:
                            if (batch.BoundByScanner)
                            {
                                batch.Add(result);
                            }
                            else
                            {
                                batch.Add(_scanner.Item, _scanner.ItemIndex, _scanner.ItemOffset);
                            }

                            if (batch.Count >= target || batch.BytesUsed >= MaxBatchBytes)
                            {
                                await DispatchAsync(batch, cancellationToken).ConfigureAwait(false);
                                batch = Rent();
                                target = Math.Min(target * 2, MaxBatchItems);
                            }

                            break;
                        case ScanStep.Failure:
                            batch.Add(Result<T>.Failure(_scanner.Error!));
                            break;
                        case ScanStep.NeedMoreData:
                            if (batch.Count > 0)
                            {
                                await DispatchAsync(batch, cancellationToken).ConfigureAwait(false);
                                batch = Rent();
                            }

                            await _scanner.FillAsync(cancellationToken).ConfigureAwait(false);
                            break;
                        case ScanStep.End:
                            if (batch.Count > 0)
                            {
                                await DispatchAsync(batch, cancellationToken).ConfigureAwait(false);
                            }

                            _ordered.Writer.TryComplete();
                            _work.Writer.TryComplete();
                            return;
                        default:
                            // A candidate for a worker's batch: the scanner finds the item's end, and the worker binds it.
                            _scanner.RejectCandidate();
                            break;
                    }
                }
            }
        }
        catch (Exception exception)
        {
            // A failed read (or the stop) reaches the consumer through the ordered channel, after the batches before it.
            _ordered.Writer.TryComplete(exception);
            _work.Writer.TryComplete();
        }
    }

    private async ValueTask DispatchAsync(Batch batch, CancellationToken cancellationToken)
    {
        batch.Bound = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        if (batch.BoundByScanner)
        {
            batch.Bound.TrySetResult();
            await _ordered.Writer.WriteAsync(batch, cancellationToken).ConfigureAwait(false);
            return;
        }

        await _ordered.Writer.WriteAsync(batch, cancellationToken).ConfigureAwait(false);
        _work.Writer.TryWrite(batch);
    }

    private async Task BindAsync(CancellationToken cancellationToken)
    {
        try
        {
            while (await _work.Reader.WaitToReadAsync(cancellationToken).ConfigureAwait(false))
            {
                while (_work.Reader.TryRead(out var batch))
                {
                    try
                    {
                        batch.BindAll(_binder);
                        batch.Bound.TrySetResult();
                    }
                    catch (Exception exception)
                    {
                        batch.Bound.TrySetException(exception);
                    }
                }
            }
        }
        catch (OperationCanceledException)
        {
            // Stopped: the consumer is gone.
        }
    }

    private Batch Rent()
    {
        var batch = _spare.TryDequeue(out var spare) ? spare : new Batch();
        batch.BoundByScanner = _work.Reader.Count >= _scannerBindsAtWaiting;
        return batch;
    }

    private void Recycle(Batch batch)
    {
        batch.Clear();
        _spare.Enqueue(batch);
    }

    private void Release()
    {
        while (_spare.TryDequeue(out var batch))
        {
            batch.Release();
        }

        while (_ordered.Reader.TryRead(out var batch))
        {
            batch.Release();
        }
    }

    /// <summary>Items copied out of the scanner's buffer, and then their results.</summary>
    private sealed class Batch
    {
        private byte[] _bytes = ArrayPool<byte>.Shared.Rent(16 * 1024);
        private Slot[] _slots = new Slot[16];

        public int Count { get; private set; }

        public int BytesUsed { get; private set; }

        public Result<T>[] Results { get; private set; } = new Result<T>[16];

        public TaskCompletionSource Bound { get; set; } = new();

        /// <summary>Gets or sets a value indicating whether the scanner binds this batch's items as it finds them.</summary>
        public bool BoundByScanner { get; set; }

        public void Add(ReadOnlySpan<byte> item, long index, long offset)
        {
            EnsureSlot();
            if (_bytes.Length - BytesUsed < item.Length)
            {
                var larger = ArrayPool<byte>.Shared.Rent(Math.Max(_bytes.Length * 2, BytesUsed + item.Length));
                _bytes.AsSpan(0, BytesUsed).CopyTo(larger);
                ArrayPool<byte>.Shared.Return(_bytes);
                _bytes = larger;
            }

            item.CopyTo(_bytes.AsSpan(BytesUsed));
            _slots[Count++] = new Slot(BytesUsed, item.Length, index, offset, Known: false);
            BytesUsed += item.Length;
        }

        // A result known already: the scanner's failure to find an item, or an item the scanner bound.
        public void Add(Result<T> result)
        {
            EnsureSlot();
            Results[Count] = result;
            _slots[Count++] = new Slot(0, 0, 0, 0, Known: true);
        }

        public void BindAll(JsonItemBinder<T> binder)
        {
            for (var i = 0; i < Count; i++)
            {
                var slot = _slots[i];
                if (!slot.Known)
                {
                    Results[i] = binder.Bind(_bytes.AsSpan(slot.Start, slot.Length), slot.Index, slot.Offset);
                }
            }
        }

        public void Clear()
        {
            // Drop the references to bound values and errors, so that a spare batch keeps nothing alive.
            Array.Clear(Results, 0, Count);
            Array.Clear(_slots, 0, Count);
            Count = 0;
            BytesUsed = 0;
        }

        public void Release()
        {
            var bytes = _bytes;
            _bytes = [];
            if (bytes.Length > 0)
            {
                ArrayPool<byte>.Shared.Return(bytes);
            }
        }

        private void EnsureSlot()
        {
            if (Count == _slots.Length)
            {
                Array.Resize(ref _slots, _slots.Length * 2);
                var results = Results;
                Array.Resize(ref results, _slots.Length);
                Results = results;
            }
        }

        private readonly record struct Slot(int Start, int Length, long Index, long Offset, bool Known);
    }
}

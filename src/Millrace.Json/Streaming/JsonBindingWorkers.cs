using System.Buffers;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using System.Threading.Channels;

namespace Millrace.Json.Streaming;

/// <summary>
/// <see cref="JsonStreamOptions.BindingWorkers"/> above 1: the scanner and <c>N - 1</c> workers bind the items, and the
/// consumer gets the results in order, item by item. With two, where the buffered bytes of an array allow, the worker
/// binds ahead: from a guessed item start on, in one pass, while the scanner binds the items before the guess itself.
/// Elsewhere the scanner finds the items' boundaries and copies them into batches for the workers, and binds a batch
/// itself whenever some wait for them.
/// </summary>
/// <remarks>
/// <para>
/// Binding ahead: the guess is a <c>{</c> after a comma after a <c>}</c> near the middle of the bytes not yet scanned,
/// at most <see cref="AheadBytes"/> on. It counts only when the scanner's own reading lands on it; then the scanner
/// passes over the worker's items and goes on after them. When it does not (the bytes were inside a string), the
/// worker's items are dropped. The worker stops at anything but a clean object item (one that does not bind in one
/// pass, is over the size limit, or is near the end of the buffer), which the scanner then reads itself, so errors
/// are the one-worker path's. One worker binds ahead at a time, so with more than two the scanner hands batches to
/// them instead, which keeps them all busy. Every item is read once: a worker's copy-and-bind read each item twice (found by the
/// scanner, then bound from its bytes), which capped two cores at about 1.46 times one worker's throughput (1 KB
/// records). Measured on the benchmark's 100 MB of 1 KB records (2 cores): two workers 1.20 times one worker's
/// throughput with batches only, 1.35 with the scanner binding batches too, about 1.65 binding ahead, at about the
/// CPU one worker uses.
/// </para>
/// <para>
/// Batches start at one item and double up to <see cref="MaxBatchItems"/>, and at most <see cref="BatchesAhead"/> per
/// worker are in flight, so stopping after k items binds O(k) items plus a bounded few (and up to
/// <see cref="AheadBytes"/> bound ahead); a batch is also handed over whenever the scanner waits for more bytes, so a
/// slow source's items are not held back. Batches, their byte buffers and their result arrays are reused, so an item
/// costs no allocation beyond its bound value (and its error).
/// </para>
/// <para>
/// A worker binds a copied item the careful way (from its own bytes), and the scanner binds its own items through the
/// one-worker path itself, so both give exactly that path's values and errors.
/// </para>
/// </remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class JsonBindingWorkers<T>
{
    // 64 items (about 64 KB of 1 KB records) where 256 kept four times as many bound values waiting for the consumer:
    // they outlived the collections of the first generation and were promoted, and the two-worker read of the benchmark's
    // 100 MB paused twice as long for the collector (about 60 ms against 30).
    private const int MaxBatchItems = 64;
    private const int MaxBatchBytes = 256 * 1024;
    private const int BatchesAhead = 2;

    // The scanner binds its next batch when this many wait for the workers. At 1 it bound every other batch, more than
    // its share (it also finds the workers' items), and the workers waited for it; 2 and 3 measured the same.
    private const int ScannerBindsAtWaiting = 2;

    // How far a worker binds ahead of the scanner, and the scanner before it: about 64 items of 1 KB each. Rounds of
    // 128 KB and more, or the whole buffer at once, kept more bound values waiting to be promoted, and measured slower.
    private const int AheadBytes = 64 * 1024;

    private readonly JsonItemScanner _scanner;
    private readonly JsonItemReader<T> _reader;
    private readonly JsonItemBinder<T> _binder;
    private readonly Channel<Batch> _ordered;
    private readonly Channel<Batch> _work = Channel.CreateUnbounded<Batch>(new UnboundedChannelOptions { SingleWriter = true });
    private readonly ConcurrentQueue<Batch> _spare = new();
    private readonly int _scannerBindsAtWaiting;
    private readonly int _aheadBytes;

    // The scanner when a worker may bind ahead in its buffer: an array's, with binding ahead on.
    private readonly JsonArrayScanner? _aheadScanner;
    private readonly JsonConverter<T> _converter;
    private readonly JsonSerializerOptions _serializerOptions;
    private readonly int _maxItemSize;

    // The batch a worker binds ahead of the scanner, from a guessed item start; the scanner's alone.
    private Batch? _ahead;

    private JsonBindingWorkers(JsonItemScanner scanner, JsonTypeInfo<T> typeInfo, int workers, int maxItemSize, int scannerBindsAtWaiting, int aheadBytes)
    {
        _scannerBindsAtWaiting = scannerBindsAtWaiting;
        _aheadBytes = aheadBytes;
        _aheadScanner = aheadBytes > 0 ? scanner as JsonArrayScanner : null;
        _converter = (JsonConverter<T>)typeInfo.Converter;
        _serializerOptions = typeInfo.Options;
        _maxItemSize = maxItemSize;
        _scanner = scanner;
        _reader = new JsonItemReader<T>(scanner, typeInfo);
        _binder = new JsonItemBinder<T>(typeInfo, scanner.RootPath);
        _ordered = Channel.CreateBounded<Batch>(new BoundedChannelOptions(BatchesAhead * workers) { SingleReader = true, SingleWriter = true });
    }

    /// <summary>Streams the items' results in order, binding them on <see cref="JsonStreamOptions.BindingWorkers"/> workers.</summary>
    public static IAsyncEnumerable<Result<T>> ReadAsync(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, CancellationToken cancellationToken) =>
        ReadAsync(utf8Json, typeInfo, options, ScannerBindsAtWaiting, options.BindingWorkers == 2 ? AheadBytes : 0, cancellationToken);

    /// <summary>
    /// Streams the items' results as <see cref="ReadAsync(Stream, JsonTypeInfo{T}, JsonStreamOptions, CancellationToken)"/>
    /// does, the scanner binding a batch whenever <paramref name="scannerBindsAtWaiting"/> wait for the workers (0: every
    /// batch; <see cref="int.MaxValue"/>: none), and a worker binding up to <paramref name="aheadBytes"/> ahead of it
    /// (0: never), so tests can take each path at will.
    /// </summary>
    internal static async IAsyncEnumerable<Result<T>> ReadAsync(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, int scannerBindsAtWaiting, int aheadBytes, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var pipeline = new JsonBindingWorkers<T>(JsonItemScanner.Create(utf8Json, options, typeInfo.Options), typeInfo, options.BindingWorkers, options.MaxItemSize, scannerBindsAtWaiting, aheadBytes);
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
            using (_scanner)
            {
                try
                {
                    await ScanItemsAsync(cancellationToken).ConfigureAwait(false);
                }
                finally
                {
                    // The buffer goes back to the pool with the scanner: no worker may still be binding ahead in it.
                    await EndAheadAsync().ConfigureAwait(false);
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

    private async Task ScanItemsAsync(CancellationToken cancellationToken)
    {
        var batch = Rent();
        var target = 1;
        while (true)
        {
            // A worker binds the buffered bytes from a guessed item start on while the scanner binds those before it.
            if (_ahead is null && _aheadScanner is { } scanner && scanner.TryGuessItemAhead(_aheadBytes, out var guess, out var comma, out var stop))
            {
                _ahead = Rent();
                _ahead.Ahead(scanner.Buffered, guess, comma, stop);
                _ahead.Bound = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                _work.Writer.TryWrite(_ahead);

                // The items up to the guess are the scanner's to bind: a batch of items found for the workers goes first.
                if (!batch.BoundByScanner && batch.Count > 0)
                {
                    await DispatchAsync(batch, cancellationToken).ConfigureAwait(false);
                    batch = Rent();
                }

                batch.BoundByScanner = true;
            }

            // A batch is the scanner's to bind when the workers already have some waiting, which they bind while the
            // scanner binds its own (Rent decides), and while a worker binds ahead.
            var result = default(Result<T>);
            var step = batch.BoundByScanner ? _reader.TryRead(out result) : _scanner.Next();
            if (_ahead is not null && step != ScanStep.Item)
            {
                // The guess was not reached: the worker's items are dropped, and the scanner reads them itself.
                await EndAheadAsync().ConfigureAwait(false);
            }

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

                    if (_ahead is { } ahead && _aheadScanner!.NextItemPosition() is var next && next >= ahead.Guess)
                    {
                        // The scanner's own reading reached the guess (an item starts there) or passed it (it was
                        // inside an item): only in the first case do the worker's items count.
                        if (next == ahead.Guess)
                        {
                            await ahead.Bound.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
                        }

                        if (next == ahead.Guess && ahead.Count > 0)
                        {
                            // Passed over before the batch is handed on: the consumer recycles it once it has read it.
                            _ahead = null;
                            _aheadScanner.AcceptItemsAhead(ahead.Count, ahead.AheadEnd, ahead.LargestAhead);
                            await DispatchAsync(batch, cancellationToken).ConfigureAwait(false);
                            await _ordered.Writer.WriteAsync(ahead, cancellationToken).ConfigureAwait(false);
                            batch = Rent();
                        }
                        else
                        {
                            await EndAheadAsync().ConfigureAwait(false);
                        }

                        break;
                    }

                    if (batch.Count >= target || batch.BytesUsed >= MaxBatchBytes)
                    {
                        await DispatchAsync(batch, cancellationToken).ConfigureAwait(false);
                        batch = Rent();
                        batch.BoundByScanner |= _ahead is not null;
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

    // Drops the batch bound ahead, if any, once no worker is binding it. One that no worker took yet is claimed here, and
    // the worker that takes it from the queue later recycles it (until then it is still queued, so not reusable).
    private async ValueTask EndAheadAsync()
    {
        if (_ahead is not { } ahead)
        {
            return;
        }

        _ahead = null;
        if (ahead.TryClaim())
        {
            return;
        }

        await ahead.Bound.Task.ConfigureAwait(false);
        Recycle(ahead);
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
                    if (!batch.TryClaim())
                    {
                        // A batch to bind ahead that the scanner took back: it is the queue's no longer.
                        Recycle(batch);
                        continue;
                    }

                    try
                    {
                        if (batch.IsAhead)
                        {
                            batch.BindAhead(this);
                        }
                        else
                        {
                            batch.BindAll(_binder);
                        }

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

        // Batches to bind ahead that the scanner took back after the workers had stopped.
        while (_work.Reader.TryRead(out var batch))
        {
            batch.Release();
        }
    }

    /// <summary>Items copied out of the scanner's buffer, and then their results.</summary>
    private sealed class Batch
    {
        private byte[] _bytes = ArrayPool<byte>.Shared.Rent(16 * 1024);
        private Slot[] _slots = new Slot[16];
        private ReadOnlyMemory<byte> _buffered;
        private int _comma;
        private int _stop;
        private int _claimed;

        public int Count { get; private set; }

        public int BytesUsed { get; private set; }

        public Result<T>[] Results { get; private set; } = new Result<T>[16];

        public TaskCompletionSource Bound { get; set; } = new();

        /// <summary>Gets or sets a value indicating whether the scanner binds this batch's items as it finds them.</summary>
        public bool BoundByScanner { get; set; }

        /// <summary>Gets a value indicating whether a worker binds this batch's items ahead of the scanner, from a guess.</summary>
        public bool IsAhead { get; private set; }

        /// <summary>Gets the buffer position of the guessed item start the worker binds from.</summary>
        public int Guess { get; private set; }

        /// <summary>Gets the buffer position after the last item bound ahead.</summary>
        public int AheadEnd { get; private set; }

        /// <summary>Gets the longest item bound ahead.</summary>
        public int LargestAhead { get; private set; }

        /// <summary>Makes this a batch to bind ahead of the scanner in <paramref name="buffered"/>: items from <paramref name="guess"/> (after <paramref name="comma"/>) that start before <paramref name="stop"/>.</summary>
        public void Ahead(ReadOnlyMemory<byte> buffered, int guess, int comma, int stop)
        {
            IsAhead = true;
            _buffered = buffered;
            Guess = guess;
            _comma = comma;
            _stop = stop;
        }

        /// <summary>Takes the batch to bind it, or back: whichever comes first (a worker, or the scanner dropping it) has it.</summary>
        public bool TryClaim() => Interlocked.Exchange(ref _claimed, 1) == 0;

        // Object items bound in one pass from the guess, each checked against the size limit as the scanner does (from
        // the comma before it); the worker stops at anything else (an item that does not bind in one pass, the array's
        // end, an item starting past the stop: a window on, or where it might be cut off by the buffer's end), which the
        // scanner then reads itself, so what it reports is exactly what one worker reports.
        public void BindAhead(JsonBindingWorkers<T> pipeline)
        {
            var bytes = _buffered.Span;
            var position = Guess;
            var comma = _comma;
            while (position < _stop && bytes[position] == (byte)'{'
                && JsonBinder<T>.TryBindInOnePass(bytes[position..], pipeline._converter, pipeline._serializerOptions, pipeline._scanner.ItemReaderOptions, out var value, out var length)
                && value is not null
                && position + length - comma <= pipeline._maxItemSize)
            {
                Add(Result<T>.Success(value));
                LargestAhead = Math.Max(LargestAhead, length);
                AheadEnd = position + length;
                comma = JsonArrayScanner.SkipJsonWhitespace(bytes, AheadEnd);
                if (comma >= bytes.Length || bytes[comma] != (byte)',')
                {
                    break;
                }

                position = JsonArrayScanner.SkipJsonWhitespace(bytes, comma + 1);
            }
        }

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
            IsAhead = false;
            _buffered = default;
            _claimed = 0;
            AheadEnd = 0;
            LargestAhead = 0;
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

using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using System.Threading.Channels;

namespace Millrace.Json.Streaming;

/// <summary>
/// The bind-ahead engine (the choice is <c>JsonItems.ReadThroughEngine</c>'s): <see cref="JsonStreamOptions.BindingWorkers"/>
/// = 2 over an array of objects: the consumer's thread reads and binds
/// the items as the one-worker path does and hands each over at once, while a worker binds the items of the buffered
/// bytes ahead of it, from a guessed item start. An array whose first item is not an object goes on through
/// <see cref="JsonBatchEngine{T}"/>' batches.
/// </summary>
/// <remarks>
/// <para>
/// The guess is a <c>{</c> after a comma after a <c>}</c> near the middle of the bytes not yet read, at most
/// <see cref="AheadBytes"/> on. It counts only when the reader's own reading lands on it; then the reader hands over the
/// items bound ahead and goes on after them. When it does not (the bytes were inside a string), they are dropped. The
/// worker binds from the guess until the reader reaches it, then stops after the item it is binding, so each side binds
/// what its speed allows in the same time and neither waits for the other longer than one item. It stops sooner at
/// <see cref="ReachRegions"/> regions on, or at anything but a clean object item (one that does not bind in one pass,
/// is over the size limit, or is near the end of the buffer), which the reader then reads itself, so values and errors
/// are exactly the one-worker path's. Stopping after k items binds k items and at most
/// <see cref="ReachRegions"/> regions ahead.
/// </para>
/// <para>
/// Every item is read once, and only the items bound ahead wait for the consumer. Handing every item through batches to
/// the consumer's thread would run three threads on two cores and keep more bound values waiting long enough for the
/// collector to promote them. Each side waits for the other by spinning a little first (<see cref="SpinLimit"/>): a
/// thread parked between two regions can take about as long to wake as a region takes to bind.
/// </para>
/// <para>
/// The reader also does the stream's read ahead itself when it gives the worker a region (both pool threads are busy,
/// so a read queued to the pool would wait until the reader stopped for its bytes, on the reader's path with the worker
/// idle), and fills the buffer as soon as too few bytes remain for a region instead of reading the last ones alone
/// while the worker idles.
/// </para>
/// </remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class JsonAheadEngine<T>
{
    // How far the worker binds ahead of the reader, and the reader before it: about 64 items of 1 KB each. Larger
    // regions, or the whole buffer at once, keep more bound values waiting long enough to be promoted.
    private const int AheadBytes = 64 * 1024;

    // The most regions a worker binds from its guess before the reader reaches it: more than the worker binds in the
    // time the reader binds one (a little more than one, as the reader also hands the items over), few enough that a
    // slow consumer keeps few bound values waiting. A worker that stopped at one region would leave the two sides
    // waiting for each other far longer than one that binds on until halted.
    private const int ReachRegions = 4;

    // About two regions' binding: longer than either side normally waits for the other, short enough that a consumer
    // slower than the worker wastes little of the worker's core.
    private static readonly long SpinLimit = Stopwatch.Frequency / 2000;

    private readonly Channel<Region> _regions = Channel.CreateUnbounded<Region>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
    private readonly JsonArrayScanner _scanner;
    private readonly JsonConverter<T> _converter;
    private readonly JsonSerializerOptions _serializerOptions;
    private readonly int _maxItemSize;
    private readonly int _aheadBytes;
    private Task? _worker;

    // The region the worker binds, and one to reuse: a region the reader dropped may still be queued, so it is not.
    private Region? _ahead;
    private Region? _spare = new();

    private JsonAheadEngine(JsonArrayScanner scanner, JsonTypeInfo<T> typeInfo, int maxItemSize, int aheadBytes)
    {
        _scanner = scanner;
        _converter = (JsonConverter<T>)typeInfo.Converter;
        _serializerOptions = typeInfo.Options;
        _maxItemSize = maxItemSize;
        _aheadBytes = aheadBytes;
    }

    /// <summary>Streams the items' results in order, a worker binding ahead of the reader.</summary>
    /// <param name="utf8Json">The UTF-8 JSON array.</param>
    /// <param name="typeInfo">Type information for <typeparamref name="T"/>.</param>
    /// <param name="options">Path and limits; <see cref="JsonStreamFormat.Array"/>.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>The items' results, in order.</returns>
    public static IAsyncEnumerable<Result<T>> ReadAsync(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, CancellationToken cancellationToken) =>
        ReadAsync(utf8Json, typeInfo, options, AheadBytes, cancellationToken);

    /// <summary>Streams the items' results as <see cref="ReadAsync(Stream, JsonTypeInfo{T}, JsonStreamOptions, CancellationToken)"/> does, the worker binding up to <paramref name="aheadBytes"/> ahead, so tests can make the regions small.</summary>
    internal static async IAsyncEnumerable<Result<T>> ReadAsync(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, int aheadBytes, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var scanner = new JsonArrayScanner(utf8Json, options, typeInfo.Options);
        await using var scannerLifetime = scanner.ConfigureAwait(false);
        var reader = new JsonInlineEngine<T>(scanner, typeInfo);
        // A region is at most a quarter of the buffer, so that a small one (the default's 16 KiB) has regions too.
        var pipeline = new JsonAheadEngine<T>(scanner, typeInfo, options.MaxItemSize, Math.Min(aheadBytes, Math.Max(options.BufferSize / 4, 1)));
        var firstItemRead = false;
        try
        {
            while (true)
            {
                cancellationToken.ThrowIfCancellationRequested();
                if (pipeline._ahead is null)
                {
                    pipeline._ahead = await pipeline.StartRegionAsync(cancellationToken).ConfigureAwait(false);
                }

                var step = reader.TryRead(out var item);
                if (step != ScanStep.Item)
                {
                    // The guess was not reached: the worker's items are dropped, and the reader reads them itself.
                    await pipeline.DropAsync().ConfigureAwait(false);
                }

                switch (step)
                {
                    case ScanStep.Item:
                        yield return item;
                        if (!firstItemRead)
                        {
                            firstItemRead = true;
                            if (!scanner.HasObjectItems)
                            {
                                // Not an array of objects, so there is nothing to guess: the rest goes through batches.
                                await foreach (var rest in JsonBatchEngine<T>.ReadRestAsync(utf8Json, scanner, typeInfo, options, cancellationToken).ConfigureAwait(false))
                                {
                                    yield return rest;
                                }

                                yield break;
                            }
                        }

                        if (await pipeline.TryTakeRegionAsync(cancellationToken).ConfigureAwait(false) is { } bound)
                        {
                            reader.PassedItemsBound();
                            for (var i = 0; i < bound.Count; i++)
                            {
                                cancellationToken.ThrowIfCancellationRequested();
                                yield return bound.Results[i];
                            }

                            bound.Clear();
                            pipeline._spare ??= bound;
                        }

                        break;
                    case ScanStep.NeedMoreData:
                        await scanner.FillAsync(cancellationToken).ConfigureAwait(false);
                        break;
                    default:
                        yield break;
                }
            }
        }
        finally
        {
            // Early exit, cancellation or failure: the worker stops, and no longer reads the buffer when the scanner
            // returns it to the pool.
            await pipeline.StopAsync().ConfigureAwait(false);
        }
    }

    // Spins until done, or for at most SpinLimit; the caller then waits the usual way.
    private static void SpinUntil<TState>(Func<TState, bool> done, TState state)
    {
        var deadline = Stopwatch.GetTimestamp() + SpinLimit;
        while (!done(state) && Stopwatch.GetTimestamp() < deadline)
        {
            Thread.SpinWait(16);
        }
    }

    // Gives the worker the items from a guessed start on, when the buffered bytes allow one; when too few remain and the
    // next ones are read ahead already, after filling the buffer (no region is out: the worker reads none of it).
    private async ValueTask<Region?> StartRegionAsync(CancellationToken cancellationToken)
    {
        if (TryStartRegion() is { } region)
        {
            return region;
        }

        if (!_scanner.ShouldFillForGuess(_aheadBytes))
        {
            return null;
        }

        await _scanner.FillAsync(cancellationToken).ConfigureAwait(false);
        return TryStartRegion();
    }

    private Region? TryStartRegion()
    {
        if (!_scanner.TryGuessItemAhead(_aheadBytes, ReachRegions * _aheadBytes, out var guess, out var comma, out var stop))
        {
            return null;
        }

        var region = _spare ?? new Region();
        _spare = null;
        region.Start(_scanner.Buffered, guess, comma, stop);
        _worker ??= Task.Run(BindAsync, CancellationToken.None);
        _regions.Writer.TryWrite(region);

        // While the worker binds: with both pool threads busy, a read ahead queued to the pool would wait until this one
        // stops for its bytes (once a read is claimed, by either, this does nothing).
        _scanner.ReadAheadNow();
        return region;
    }

    // Once the reader's own reading has reached the guess (an item starts there) or passed it (it was inside an item):
    // in the first case the worker's items are passed over and returned, after the next region went to the worker, so
    // that it binds while the consumer takes these; in the second they are dropped.
    private async ValueTask<Region?> TryTakeRegionAsync(CancellationToken cancellationToken)
    {
        if (_ahead is not { } ahead || _scanner.NextItemPosition() is var next && next < ahead.Guess)
        {
            return null;
        }

        if (next != ahead.Guess)
        {
            await DropAsync().ConfigureAwait(false);
            return null;
        }

        _ahead = null;
        if (!await HaltAsync(ahead).ConfigureAwait(false))
        {
            // The worker had not taken it yet (a busy thread pool): the reader reads those items itself, and never
            // waits for a thread it cannot count on.
            return null;
        }

        if (ahead.Count == 0)
        {
            ahead.Clear();
            _spare ??= ahead;
            return null;
        }

        _scanner.AcceptItemsAhead(ahead.Count, ahead.End, ahead.Largest);
        _ahead = await StartRegionAsync(cancellationToken).ConfigureAwait(false);
        return ahead;
    }

    // The reader no longer needs the worker's items: they are dropped, and the reader reads them itself.
    private async ValueTask DropAsync()
    {
        if (_ahead is { } ahead)
        {
            _ahead = null;
            await HaltAsync(ahead).ConfigureAwait(false);
        }
    }

    // Stops a region: the worker binds no further item. One the worker has not taken yet is taken back, for it to skip
    // (halted, it would bind nothing anyway); one it took is waited for, spinning first, since the wait is one item's
    // binding at most. Returns whether the worker had it.
    private static async ValueTask<bool> HaltAsync(Region region)
    {
        region.Halt();
        if (region.TryClaim())
        {
            return false;
        }

        SpinUntil(static region => region.Bound.Task.IsCompleted, region);
        await region.Bound.Task.ConfigureAwait(false);
        return true;
    }

    private async ValueTask StopAsync()
    {
        try
        {
            await DropAsync().ConfigureAwait(false);
        }
        finally
        {
            _regions.Writer.TryComplete();
            if (_worker is not null)
            {
                await _worker.ConfigureAwait(false);
            }
        }
    }

    // Binds regions until the reader is done: it completes the queue once it no longer needs the worker.
    private async Task BindAsync()
    {
        while (await _regions.Reader.WaitToReadAsync().ConfigureAwait(false))
        {
            while (_regions.Reader.TryRead(out var region))
            {
                if (region.TryClaim())
                {
                    region.Bind(this);
                }

                // The reader gives the next region as it takes this one's items.
                SpinUntil(static regions => regions.TryPeek(out _) || regions.Completion.IsCompleted, _regions.Reader);
            }
        }
    }

    /// <summary>The items the worker binds ahead of the reader, from a guessed item start.</summary>
    private sealed class Region
    {
        private ReadOnlyMemory<byte> _buffered;
        private int _comma;
        private int _stop;
        private int _claimed;

        // Set by the reader once it needs the items bound so far: the worker binds no further item.
        private volatile bool _halted;

        public Result<T>[] Results { get; private set; } = new Result<T>[64];

        public int Count { get; private set; }

        public TaskCompletionSource Bound { get; private set; } = new();

        /// <summary>Gets the buffer position of the guessed item start.</summary>
        public int Guess { get; private set; }

        /// <summary>Gets the buffer position after the last item bound.</summary>
        public int End { get; private set; }

        /// <summary>Gets the longest item bound.</summary>
        public int Largest { get; private set; }

        /// <summary>Makes this the region of <paramref name="buffered"/> from <paramref name="guess"/> (after <paramref name="comma"/>), its items starting before <paramref name="stop"/>.</summary>
        public void Start(ReadOnlyMemory<byte> buffered, int guess, int comma, int stop)
        {
            _buffered = buffered;
            Guess = guess;
            _comma = comma;
            _stop = stop;
            _claimed = 0;
            _halted = false;
            Bound = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        /// <summary>Takes the region to bind it, or back: whichever comes first (the worker, or the reader dropping it) has it.</summary>
        public bool TryClaim() => Interlocked.Exchange(ref _claimed, 1) == 0;

        /// <summary>Stops the binding after the item being bound.</summary>
        public void Halt() => _halted = true;

        // Object items bound in one pass from the guess, each checked against the size limit as the scanner does (from
        // the comma before it) and to be UTF-8, until halted; the worker stops at anything else (an item that does not bind in one pass or is not UTF-8,
        // the array's end, an item starting past the stop: the reach, or where it might be cut off by the buffer's end),
        // which the reader then reads itself, so what it reports is exactly what one worker reports.
        public void Bind(JsonAheadEngine<T> pipeline)
        {
            try
            {
                var bytes = _buffered.Span;
                var position = Guess;
                var comma = _comma;
                while (position < _stop && !_halted && bytes[position] == (byte)'{'
                    && JsonBinding<T>.TryBindInOnePass(bytes[position..], pipeline._converter, pipeline._serializerOptions, pipeline._scanner.ItemReaderOptions, out var value, out var length)
                    && value is not null
                    && position + length - comma <= pipeline._maxItemSize
                    && JsonText.IndexOfInvalidUtf8(bytes.Slice(position, length)) < 0)
                {
                    Add(Result<T>.Success(value), length, position + length);
                    comma = JsonArrayScanner.SkipJsonWhitespace(bytes, End);
                    if (comma >= bytes.Length || bytes[comma] != (byte)',')
                    {
                        break;
                    }

                    position = JsonArrayScanner.SkipJsonWhitespace(bytes, comma + 1);
                }

                Bound.TrySetResult();
            }
            catch (Exception exception)
            {
                // Whatever a one-pass binding throws it keeps; this is what is left (no memory, say), for the reader.
                Bound.TrySetException(exception);
            }
        }

        public void Clear()
        {
            // Drop the references to bound values, so that a spare region keeps nothing alive.
            Array.Clear(Results, 0, Count);
            Count = 0;
            End = 0;
            Largest = 0;
            _buffered = default;
        }

        private void Add(Result<T> result, int length, int end)
        {
            if (Count == Results.Length)
            {
                var results = Results;
                Array.Resize(ref results, results.Length * 2);
                Results = results;
            }

            Results[Count++] = result;
            Largest = Math.Max(Largest, length);
            End = end;
        }
    }
}

using System.Buffers;
using System.Diagnostics.CodeAnalysis;

namespace Millrace.Json.Streaming;

/// <summary>
/// One read of a stream running ahead of the scanner, into a second pooled buffer after a reserved head. A refill then
/// copies only the scanner's unconsumed bytes into that head and swaps the two buffers, where it waited for the read and
/// its copy of a whole buffer.
/// </summary>
/// <remarks>
/// <para>
/// Refills are on the scanner's path, and with two workers both stand idle meanwhile; a read ahead whose bytes were
/// then copied into the scanner's buffer would leave a whole buffer's copy on that path, so the buffers are swapped
/// instead. The reserved head is a quarter of the buffer, at most 64 KiB; unconsumed bytes that do not fit it (an item
/// longer than that, cut by the buffer's end), or a scanner buffer grown past this one for a long item, get the read
/// bytes copied in instead, so the read ahead never holds more than the buffer it was made with. The scanner reads
/// ahead only from seekable streams (files, memory), on the assumption that their reads do not wait for a producer:
/// disposing waits for a read still running (cancelled first), so the caller has the stream back when the enumeration
/// ends, and that wait is short unless a seekable stream reads from a network and ignores the cancellation (then the
/// enumeration's end waits for the read).
/// </para>
/// <para>
/// The read is queued to the thread pool, and whichever thread comes first does it: a pool thread, or the scanner's
/// own through <see cref="ReadNow"/> (a <see cref="FileStream"/> or <see cref="MemoryStream"/> only, whose synchronous
/// reads wait for no producer; a cold disk or a network share keeps the scanner's thread as long as it would have kept
/// a pool thread). With two binding workers on two cores both pool threads are busy, and a queued read would often run
/// only once the scanner stopped to wait for its bytes, with the other worker idle meanwhile.
/// </para>
/// </remarks>
internal sealed class StreamReadAhead : IAsyncDisposable
{
    private const int MaxReserve = 64 * 1024;

    private readonly Stream _stream;
    private byte[] _buffer;
    private readonly bool _readsAtOnce;
    private CancellationTokenSource? _cancel;
    private PendingRead? _pending;
    private int _reserve;
    private int _start;
    private int _end;
    private bool _filledRoom;
    private bool _endOfStream;

    /// <summary>Initializes a read-ahead of <paramref name="stream"/> into a pooled buffer of at least <paramref name="size"/> bytes.</summary>
    /// <param name="stream">The stream the scanner reads.</param>
    /// <param name="size">The size to read into: <see cref="JsonStreamOptions.BufferSize"/>.</param>
    public StreamReadAhead(Stream stream, int size)
    {
        _stream = stream;
        // Exactly these types: a subclass may read from anywhere, synchronously too.
        _readsAtOnce = stream.GetType() == typeof(FileStream) || stream.GetType() == typeof(MemoryStream);
        _buffer = ArrayPool<byte>.Shared.Rent(size);
    }

    /// <summary>Gets a value indicating whether a read is running or its bytes wait to be taken.</summary>
    public bool HasBytes => _pending is not null || _start < _end;

    /// <summary>Gets a value indicating whether the read of the bytes taken last filled all the room it had.</summary>
    public bool FilledRoom => _filledRoom;

    /// <summary>Gets a value indicating whether the bytes taken last end the stream, with none left here.</summary>
    public bool EndOfStream => _endOfStream && _start == _end;

    /// <summary>
    /// Gets whether the read ahead is over and brought bytes, none taken yet, and <paramref name="unconsumed"/> bytes of
    /// a buffer of <paramref name="bufferLength"/> fit its head: a refill now waits for nothing and copies only those
    /// bytes. A read that failed does not count, so that its error still comes after the items buffered before it.
    /// </summary>
    /// <param name="unconsumed">The scanner's unconsumed bytes.</param>
    /// <param name="bufferLength">The scanner's buffer size.</param>
    /// <returns><see langword="true"/> when a refill now would swap the buffers at once.</returns>
    public bool CanSwapNow(int unconsumed, int bufferLength) =>
        _pending is { } pending && pending.Outcome.Task.IsCompletedSuccessfully && pending.Outcome.Task.Result > 0
        && FitsHead(unconsumed, bufferLength);

    /// <summary>Starts the next read, after the reserved head; call only when no bytes wait (<see cref="HasBytes"/> is false).</summary>
    public void Start()
    {
        _cancel ??= new CancellationTokenSource();
        _reserve = Math.Min(_buffer.Length / 4, MaxReserve);
        _start = _reserve;
        _end = _reserve;

        // On the thread pool (with the caller's execution context, as the stream would have it), so that the read
        // overlaps the scanning even when a stream's ReadAsync does its work before returning; its outcome is a task,
        // since it is kept past this fill and waited for with a token, and holds whatever the stream throws for the
        // fill that needs the bytes.
        var pending = new PendingRead(_stream, _buffer.AsMemory(_reserve), _cancel.Token);
        _pending = pending;
        ThreadPool.QueueUserWorkItem(static pending => _ = pending.ReadAsync(), pending, preferLocal: false);
    }

    /// <summary>
    /// Does the read on the calling thread, when no pool thread has started it and the stream is a
    /// <see cref="FileStream"/> or <see cref="MemoryStream"/>: for a caller that keeps the pool's threads busy, so that
    /// the bytes are there before they are needed.
    /// </summary>
    public void ReadNow()
    {
        if (_readsAtOnce && _pending is { } pending)
        {
            pending.Read();
        }
    }

    /// <summary>Waits for the read, when one runs.</summary>
    /// <param name="cancellationToken">Stops the wait; the read itself is cancelled on <see cref="DisposeAsync"/>.</param>
    /// <returns>A task that completes when the bytes read ahead can be taken.</returns>
    public async ValueTask WaitAsync(CancellationToken cancellationToken)
    {
        if (_pending is { } pending)
        {
            // Forgotten only once it is over: a wait cancelled here leaves the read running, for DisposeAsync to cancel.
            var read = await pending.Outcome.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
            _pending = null;
            var room = _buffer.Length - _reserve;
            _end = _reserve + read;
            _filledRoom = read == room;
            _endOfStream = JsonItemScanner.EndedStream(_stream, read, room);
        }
    }

    /// <summary>
    /// Makes the bytes read ahead the scanner's buffer, its unconsumed bytes copied into the head before them, and takes
    /// the scanner's buffer for the next read; nothing when they do not fit the head, some were taken already, or the
    /// scanner's buffer is larger than this one (grown for a long item).
    /// </summary>
    /// <param name="buffer">The scanner's buffer; the buffer read into, afterwards.</param>
    /// <param name="start">Where its unconsumed bytes begin.</param>
    /// <param name="end">Where they end.</param>
    /// <param name="bufferOffset">The stream offset of its first byte.</param>
    /// <returns><see langword="true"/> when swapped.</returns>
    public bool TrySwap(ref byte[] buffer, ref int start, ref int end, ref long bufferOffset)
    {
        var unconsumed = end - start;
        if (_pending is not null || !FitsHead(unconsumed, buffer.Length))
        {
            return false;
        }

        var head = _reserve - unconsumed;
        buffer.AsSpan(start, unconsumed).CopyTo(_buffer.AsSpan(head));
        bufferOffset += start - head;
        (buffer, _buffer) = (_buffer, buffer);
        start = head;
        end = _end;
        _start = 0;
        _end = 0;
        return true;
    }

    /// <summary>Copies as many of the bytes read ahead as fit into <paramref name="destination"/>.</summary>
    /// <param name="destination">The free part of the scanner's buffer.</param>
    /// <returns>How many bytes were copied.</returns>
    public int Take(Span<byte> destination)
    {
        var copied = Math.Min(destination.Length, _end - _start);
        _buffer.AsSpan(_start, copied).CopyTo(destination);
        _start += copied;
        return copied;
    }

    // Whether the read bytes, none taken yet, can become the scanner's buffer with its unconsumed bytes in the head.
    private bool FitsHead(int unconsumed, int bufferLength) => _start == _reserve && unconsumed <= _reserve && bufferLength <= _buffer.Length;

    /// <summary>Returns the buffer to the pool, once a read still running (cancelled first) is over.</summary>
    /// <returns>A task that completes when the stream is no longer read.</returns>
    public async ValueTask DisposeAsync()
    {
        if (_pending is { } pending)
        {
            _pending = null;

            // A read nobody has started never starts; one running is cancelled.
            pending.Abandon();
            _cancel!.Cancel();

            // Nothing asked for these bytes: the read's outcome, whatever it is, is dropped, and marked observed.
            await ((Task)pending.Outcome.Task).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            _ = pending.Outcome.Task.Exception;
        }

        _cancel?.Dispose();
        ArrayPool<byte>.Shared.Return(_buffer);
    }

    /// <summary>One read into the buffer, done by whichever thread claims it first, or abandoned.</summary>
    /// <param name="stream">The stream to read.</param>
    /// <param name="destination">Where its bytes go.</param>
    /// <param name="cancellationToken">Cancels a read the stream's <c>ReadAsync</c> does.</param>
    internal sealed class PendingRead(Stream stream, Memory<byte> destination, CancellationToken cancellationToken)
    {
        private int _claimed;

        /// <summary>Gets the read's outcome: the bytes read, what the stream threw, or cancelled when abandoned.</summary>
        public TaskCompletionSource<int> Outcome { get; } = new();

        /// <summary>Reads through the stream's <c>ReadAsync</c>, unless another thread has claimed the read.</summary>
        /// <returns>A task that completes when the read is over, or at once.</returns>
        public Task ReadAsync() => RunAsync(synchronously: false);

        /// <summary>Reads through the stream's synchronous <c>Read</c> on the calling thread, unless another thread has claimed the read.</summary>
        public void Read() => _ = RunAsync(synchronously: true);

        /// <summary>Makes sure the read never starts, unless a thread has claimed it already.</summary>
        public void Abandon()
        {
            if (TryClaim())
            {
                Outcome.SetCanceled(cancellationToken);
            }
        }

        private bool TryClaim() => Interlocked.Exchange(ref _claimed, 1) == 0;

        // Synchronously, nothing is awaited: the task returned is complete.
        [SuppressMessage("Design", "CA1031:Do not catch general exception types", Justification = "Whatever the read throws goes to the fill that waits for its bytes.")]
        private async Task RunAsync(bool synchronously)
        {
            if (!TryClaim())
            {
                return;
            }

            try
            {
                Outcome.SetResult(synchronously ? stream.Read(destination.Span) : await stream.ReadAsync(destination, cancellationToken).ConfigureAwait(false));
            }
            catch (OperationCanceledException canceled) when (cancellationToken.IsCancellationRequested)
            {
                Outcome.SetCanceled(canceled.CancellationToken);
            }
            catch (Exception exception)
            {
                Outcome.SetException(exception);
            }
        }
    }
}

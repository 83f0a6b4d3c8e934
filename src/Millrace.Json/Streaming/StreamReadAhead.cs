using System.Buffers;

namespace Millrace.Json.Streaming;

/// <summary>
/// One read of a stream running ahead of the scanner, into a second pooled buffer after a reserved head. A refill then
/// copies only the scanner's unconsumed bytes into that head and swaps the two buffers, where it waited for the read and
/// its copy of a whole buffer.
/// </summary>
/// <remarks>
/// Refills took about 33 ms of a 500 ms read of the binding benchmark's 100 MB file (1 MiB buffer, 2-core VM), all of it
/// on the scanner's path, and with two workers both stood idle meanwhile; a read ahead whose bytes were then copied into
/// the scanner's buffer took as long, so the buffers are swapped instead. The reserved head is a quarter of the buffer,
/// at most 64 KiB; unconsumed bytes that do not fit it (an item longer than that, cut by the buffer's end), or a scanner
/// buffer grown past this one for a long item, get the read bytes copied in instead, so the read ahead never holds more
/// than the buffer it was made with. The scanner reads ahead only from seekable streams (files, memory), on the
/// assumption that their reads do not wait for a producer: disposing waits for a read still running (cancelled first),
/// so the caller has the stream back when the enumeration ends, and that wait is short unless a seekable stream reads
/// from a network and ignores the cancellation (then the enumeration's end waits for the read).
/// </remarks>
internal sealed class StreamReadAhead : IAsyncDisposable
{
    private const int MaxReserve = 64 * 1024;

    private readonly Stream _stream;
    private byte[] _buffer;
    private CancellationTokenSource? _cancel;
    private Task<int>? _pending;
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
        _buffer = ArrayPool<byte>.Shared.Rent(size);
    }

    /// <summary>Gets a value indicating whether a read is running or its bytes wait to be taken.</summary>
    public bool HasBytes => _pending is not null || _start < _end;

    /// <summary>Gets a value indicating whether the read of the bytes taken last filled all the room it had.</summary>
    public bool FilledRoom => _filledRoom;

    /// <summary>Gets a value indicating whether the bytes taken last end the stream, with none left here.</summary>
    public bool EndOfStream => _endOfStream && _start == _end;

    /// <summary>Starts the next read, after the reserved head; call only when no bytes wait (<see cref="HasBytes"/> is false).</summary>
    public void Start()
    {
        _cancel ??= new CancellationTokenSource();
        _reserve = Math.Min(_buffer.Length / 4, MaxReserve);
        _start = _reserve;
        _end = _reserve;

        // On the thread pool, so that the read overlaps the scanning even when a stream's ReadAsync does its work before
        // returning; a task, since it is kept past this fill and waited for with a token, and holds whatever the stream
        // throws for the fill that needs the bytes.
        var buffer = _buffer.AsMemory(_reserve);
        var token = _cancel.Token;
        _pending = Task.Run(() => _stream.ReadAsync(buffer, token).AsTask(), CancellationToken.None);
    }

    /// <summary>Waits for the read, when one runs.</summary>
    /// <param name="cancellationToken">Stops the wait; the read itself is cancelled on <see cref="DisposeAsync"/>.</param>
    /// <returns>A task that completes when the bytes read ahead can be taken.</returns>
    public async ValueTask WaitAsync(CancellationToken cancellationToken)
    {
        if (_pending is { } pending)
        {
            // Forgotten only once it is over: a wait cancelled here leaves the read running, for DisposeAsync to cancel.
            var read = await pending.WaitAsync(cancellationToken).ConfigureAwait(false);
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
        if (_pending is not null || _start != _reserve || unconsumed > _reserve || buffer.Length > _buffer.Length)
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

    /// <summary>Returns the buffer to the pool, once a read still running (cancelled first) is over.</summary>
    /// <returns>A task that completes when the stream is no longer read.</returns>
    public async ValueTask DisposeAsync()
    {
        if (_pending is { } pending)
        {
            _pending = null;
            _cancel!.Cancel();

            // Nothing asked for these bytes: the read's outcome, whatever it is, is dropped, and marked observed.
            await ((Task)pending).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            _ = pending.Exception;
        }

        _cancel?.Dispose();
        ArrayPool<byte>.Shared.Return(_buffer);
    }
}

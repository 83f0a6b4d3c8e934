using System.Buffers;
using System.Text.Json;

namespace Millrace.Json.Streaming;

/// <summary>
/// Finds the boundaries of items in UTF-8 JSON read from a stream, one item at a time, without binding them: the part
/// that <see cref="JsonInlineEngine{T}"/> drives. What every format needs is here: one pooled buffer that grows only
/// while a single item does not fit (up to <see cref="JsonStreamOptions.MaxItemSize"/>), refilling it (for a seekable
/// stream, from a read ahead into a second buffer that it swaps with), the byte order mark, item numbering and how
/// errors are located. How items are found is the format's:
/// <see cref="JsonArrayScanner"/> for the items of an array (the root, or the one a path selects) and
/// <see cref="JsonLinesScanner"/> for NDJSON lines.
/// </summary>
internal abstract class JsonItemScanner : IAsyncDisposable
{
    private readonly Stream _stream;
    private byte[] _buffer;
    private int _start;
    private int _end;
    private long _bufferOffset;
    private long _nextIndex;
    private bool _startChecked;
    private bool _done;
    private StreamReadAhead? _readAhead;
    private int _fullReads;

    /// <summary>Initializes a scanner over <paramref name="stream"/>.</summary>
    /// <param name="stream">The UTF-8 JSON source.</param>
    /// <param name="options">Format, path and limits.</param>
    /// <param name="serializerOptions">The serializer options whose comment and trailing-comma settings the reader follows.</param>
    /// <param name="rootPath">The path items are counted under.</param>
    /// <param name="bufferSize">The first buffer's size, when it should differ from <see cref="JsonStreamOptions.BufferSize"/>.</param>
    protected JsonItemScanner(Stream stream, JsonStreamOptions options, JsonSerializerOptions serializerOptions, string rootPath, int? bufferSize)
    {
        _stream = stream;
        Options = options;
        RootPath = rootPath;

        // An item read on its own counts depth from itself.
        ItemReaderOptions = new JsonReaderOptions
        {
            MaxDepth = options.MaxDepth,
            AllowTrailingCommas = serializerOptions.AllowTrailingCommas,
            CommentHandling = serializerOptions.ReadCommentHandling == JsonCommentHandling.Disallow
                ? JsonCommentHandling.Disallow
                : JsonCommentHandling.Skip,
        };
        _buffer = ArrayPool<byte>.Shared.Rent(bufferSize ?? options.BufferSize);
    }

    /// <summary>Gets the zero-based index of the item (or error) the last step produced.</summary>
    public long ItemIndex { get; private set; }

    /// <summary>Gets the stream offset of the first byte of the last item.</summary>
    public long ItemOffset => _bufferOffset + ItemStart;

    /// <summary>Gets the error of the last <see cref="ScanStep.Failure"/>.</summary>
    public Error? Error { get; private set; }

    /// <summary>Gets the UTF-8 bytes of the last item; valid until the next <see cref="FillAsync"/>.</summary>
    public ReadOnlySpan<byte> Item => _buffer.AsSpan(ItemStart, ItemLength);

    /// <summary>Gets the UTF-8 bytes of the last item as memory; valid until the next <see cref="FillAsync"/>.</summary>
    public ReadOnlyMemory<byte> ItemMemory => _buffer.AsMemory(ItemStart, ItemLength);

    /// <summary>Gets the buffered bytes from the start of the candidate item to the end of the buffer.</summary>
    public ReadOnlySpan<byte> Candidate => _buffer.AsSpan(ItemStart, _end - ItemStart);

    /// <summary>Gets reader options for reading one item on its own: the depth limit counts from the item.</summary>
    public JsonReaderOptions ItemReaderOptions { get; }

    /// <summary>Gets the path items are counted under: <c>$</c>, or the selected array's path.</summary>
    public string RootPath { get; }

    /// <summary>Gets the format, path and limits.</summary>
    protected JsonStreamOptions Options { get; }

    /// <summary>Gets the buffer; its bytes from <see cref="Start"/> to <see cref="End"/> are the unconsumed input.</summary>
    protected byte[] Buffer => _buffer;

    /// <summary>Gets or sets where the unconsumed bytes begin: everything before is scanned and may be dropped.</summary>
    protected int Start
    {
        get => _start;
        set => _start = value;
    }

    /// <summary>Gets where the buffered bytes end.</summary>
    protected int End => _end;

    /// <summary>Gets the stream offset of the buffer's first byte.</summary>
    protected long BufferOffset => _bufferOffset;

    /// <summary>Gets a value indicating whether the scanning is over: the end was reached, or a failure ended it.</summary>
    protected bool IsDone => _done;

    /// <summary>Gets a value indicating whether the buffer holds the stream's last byte.</summary>
    protected bool EndOfStream { get; private set; }

    /// <summary>Gets a value indicating whether the last read filled all the room the buffer had.</summary>
    protected bool LastReadFilledBuffer { get; private set; }

    /// <summary>Gets the index the next item (or error) will have.</summary>
    protected long NextIndex => _nextIndex;

    /// <summary>Gets or sets where in the buffer the last item (or candidate) starts.</summary>
    protected int ItemStart { get; set; }

    private int ItemLength { get; set; }

    /// <summary>Gets the UTF-8 byte order mark, skipped before the first item as System.Text.Json's own stream reading does.</summary>
    protected static ReadOnlySpan<byte> ByteOrderMark => "\uFEFF"u8;

    /// <summary>Creates the scanner for <paramref name="options"/>' format.</summary>
    /// <param name="stream">The UTF-8 JSON source.</param>
    /// <param name="options">Format, path and limits.</param>
    /// <param name="serializerOptions">The serializer options whose comment and trailing-comma settings the reader follows.</param>
    /// <param name="bufferSize">The first buffer's size, when it should differ from <see cref="JsonStreamOptions.BufferSize"/>.</param>
    /// <param name="offerCandidates">Whether an array scanner offers items to bind in one pass (<see cref="ScanStep.ItemCandidate"/>); a reader that does not bind finds every item itself.</param>
    /// <returns>A <see cref="JsonLinesScanner"/> for <see cref="JsonStreamFormat.Lines"/>, a <see cref="JsonArrayScanner"/> otherwise.</returns>
    public static JsonItemScanner Create(Stream stream, JsonStreamOptions options, JsonSerializerOptions serializerOptions, int? bufferSize = null, bool offerCandidates = true) =>
        options.Format == JsonStreamFormat.Lines
            ? new JsonLinesScanner(stream, options, serializerOptions, bufferSize)
            : new JsonArrayScanner(stream, options, serializerOptions, bufferSize, offerCandidates);

    /// <summary>Scans for the next item in the buffered bytes.</summary>
    /// <returns>What was found.</returns>
    public ScanStep Next()
    {
        if (!_startChecked)
        {
            // Skip a UTF-8 byte order mark, as System.Text.Json's own stream reading does.
            if (_end < 3 && !EndOfStream)
            {
                return ScanStep.NeedMoreData;
            }

            _start = _buffer.AsSpan(0, _end).StartsWith(ByteOrderMark) ? ByteOrderMark.Length : 0;
            _startChecked = true;
        }

        return _done ? ScanStep.End : Scan();
    }

    /// <summary>
    /// Reads more bytes from the stream, first making room by dropping what was consumed. Once a seekable stream has
    /// filled the room twice, each fill whose read filled it starts the next read ahead (<see cref="StreamReadAhead"/>),
    /// which the next fill takes.
    /// </summary>
    /// <param name="cancellationToken">Cancels the read.</param>
    /// <returns>A task that completes when bytes were read or the stream ended.</returns>
    public async ValueTask FillAsync(CancellationToken cancellationToken)
    {
        if (_readAhead is { HasBytes: true } readAhead)
        {
            await readAhead.WaitAsync(cancellationToken).ConfigureAwait(false);
            var filledRoom = false;
            if (!readAhead.TrySwap(ref _buffer, ref _start, ref _end, ref _bufferOffset))
            {
                MakeRoom();
                var room = _buffer.Length - _end;
                var copied = readAhead.Take(_buffer.AsSpan(_end));
                _end += copied;
                filledRoom = copied == room;
            }

            LastReadFilledBuffer = filledRoom || readAhead.FilledRoom;
            EndOfStream = readAhead.EndOfStream;
        }
        else
        {
            MakeRoom();
            var space = _buffer.Length - _end;
            var read = await _stream.ReadAsync(_buffer.AsMemory(_end), cancellationToken).ConfigureAwait(false);
            LastReadFilledBuffer = read == space;
            _end += read;
            EndOfStream = EndedStream(_stream, read, space);
        }

        // Only from a seekable stream (a file, memory), whose reads never wait for a producer, so that the enumeration's
        // end can wait for a read still running. Counted up to 2 only: a long stream must not wrap the count around.
        if (!EndOfStream && LastReadFilledBuffer && _stream.CanSeek && (_fullReads = Math.Min(_fullReads + 1, 2)) == 2 && _readAhead?.HasBytes != true)
        {
            (_readAhead ??= new StreamReadAhead(_stream, Options.BufferSize)).Start();
        }
    }

    /// <summary>
    /// Reads the bytes ahead on the calling thread, when a read ahead waits for a pool thread (a <see cref="FileStream"/>
    /// or <see cref="MemoryStream"/> only): for a caller that keeps the pool's threads busy.
    /// </summary>
    public void ReadAheadNow() => _readAhead?.ReadNow();

    /// <summary>Gets whether <see cref="FillAsync"/> would now wait for nothing and copy only the unconsumed bytes.</summary>
    protected bool CanFillAtOnce => _readAhead is { } readAhead && readAhead.CanSwapNow(_end - _start, _buffer.Length);

    /// <summary>
    /// Gets whether a read of <paramref name="read"/> bytes into <paramref name="room"/> bytes ended the stream: it
    /// brought none, or fewer than the room from a seekable stream that is now exhausted. A seekable stream says so
    /// without another read, which lets the last items be read as the final block: in one pass, instead of scanned and
    /// then bound.
    /// </summary>
    /// <param name="stream">The stream read.</param>
    /// <param name="read">The bytes the read brought.</param>
    /// <param name="room">The bytes it asked for.</param>
    /// <returns><see langword="true"/> when nothing follows.</returns>
    internal static bool EndedStream(Stream stream, int read, int room) =>
        read == 0 || (read < room && stream.CanSeek && stream.Position >= stream.Length);

    /// <summary>
    /// Completes the candidate item once it has been bound in one pass and found to be <paramref name="length"/> bytes.
    /// Only called after <see cref="Next"/> reported <see cref="ScanStep.ItemCandidate"/>, which only a scanner that
    /// overrides this does.
    /// </summary>
    /// <param name="length">The item's length in bytes.</param>
    /// <returns><see langword="false"/> when the item is over the size limit or not UTF-8; call <see cref="RejectCandidate"/> then.</returns>
    public virtual bool TryAcceptCandidate(int length) => throw new InvalidOperationException("This scanner offers no candidates.");

    /// <summary>Makes the next step scan the candidate item instead, which finds and reports whatever went wrong.</summary>
    public virtual void RejectCandidate() => throw new InvalidOperationException("This scanner offers no candidates.");

    /// <summary>Stops a read ahead, and returns the buffers to the pool.</summary>
    /// <returns>A task that completes once the stream is no longer read.</returns>
    public async ValueTask DisposeAsync()
    {
        if (_readAhead is { } readAhead)
        {
            _readAhead = null;
            await readAhead.DisposeAsync().ConfigureAwait(false);
        }

        var buffer = _buffer;
        _buffer = [];
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>
    /// Whether <paramref name="bytes"/> could still become valid JSON if more followed: then a final-block reader that
    /// failed on them failed only because the input ended, wherever it placed the error (after a comma it names the
    /// comma, elsewhere the end).
    /// </summary>
    /// <param name="bytes">The bytes the reader failed on.</param>
    /// <param name="state">The state it started in.</param>
    /// <returns><see langword="true"/> when no byte of <paramref name="bytes"/> is wrong in itself.</returns>
    protected static bool IsValidPrefix(ReadOnlySpan<byte> bytes, JsonReaderState state)
    {
        var reader = new Utf8JsonReader(bytes, isFinalBlock: false, state);
        try
        {
            while (reader.Read())
            {
            }

            return true;
        }
        catch (JsonException)
        {
            return false;
        }
    }

    /// <summary>Scans for the next item, once the byte order mark is behind and reading has not ended.</summary>
    /// <returns>What was found.</returns>
    protected abstract ScanStep Scan();

    /// <summary>
    /// Gets whether an item that is not UTF-8 ends reading: in NDJSON, as a malformed line does (unless such lines are
    /// skipped); never in an array, whose structure it leaves whole.
    /// </summary>
    protected virtual bool MalformedItemEndsReading => false;

    /// <summary>
    /// Hands over the item at <paramref name="start"/> with the next index, or, when its strings are not UTF-8, the
    /// <see cref="JsonErrorCodes.Encoding"/> failure that stands in its place.
    /// </summary>
    /// <param name="start">Where in the buffer the item starts.</param>
    /// <param name="length">Its length in bytes.</param>
    /// <returns><see cref="ScanStep.Item"/>, or <see cref="ScanStep.Failure"/>.</returns>
    protected ScanStep Emit(int start, int length)
    {
        if (JsonText.IndexOfInvalidUtf8(_buffer.AsSpan(start, length)) is >= 0 and var invalid)
        {
            return FailEncoding(start + invalid, TakeIndex());
        }

        ItemStart = start;
        ItemLength = length;
        ItemIndex = _nextIndex++;
        return ScanStep.Item;
    }

    /// <summary>Reports bytes that are not UTF-8 at a buffer position, in the item <paramref name="index"/> when there is one.</summary>
    /// <param name="bufferPosition">Where in the buffer the first such byte is.</param>
    /// <param name="index">The item, if any.</param>
    /// <param name="path">The path, when it is not the item's.</param>
    /// <returns><see cref="ScanStep.Failure"/>.</returns>
    protected ScanStep FailEncoding(long bufferPosition, long? index, string? path = null)
    {
        ItemIndex = index ?? ItemIndex;
        return Fail(JsonErrorCodes.Encoding, JsonText.NotUtf8, bufferPosition, fatal: index is null || MalformedItemEndsReading, index, path);
    }

    /// <summary>Takes the next index for an error that stands in an item's place.</summary>
    /// <returns>The index.</returns>
    protected long TakeIndex() => _nextIndex++;

    /// <summary>Takes the next <paramref name="count"/> indices, for items bound elsewhere.</summary>
    /// <param name="count">How many items.</param>
    protected void TakeIndices(int count) => _nextIndex += count;

    /// <summary>
    /// Finds the byte at which the reader gave up, from the line and column in its exception. Those count from the
    /// document start only as far as the resumed reader state knows it (a state reused after a one-pass item carries
    /// an earlier item's position), so they are measured against the position the same state reports for the span's
    /// first byte: a probe that fails on that byte at once. The result depends only on the bytes, never on where reads
    /// or the buffer happened to end.
    /// </summary>
    /// <param name="exception">What the reader threw.</param>
    /// <param name="spanBase">Where in the buffer the reader started.</param>
    /// <param name="spanState">The state it started in.</param>
    /// <param name="limit">The end of the bytes it read.</param>
    /// <returns>The buffer position of the offending byte, or <paramref name="limit"/> when the input ran out.</returns>
    protected int OffendingPosition(JsonException exception, int spanBase, JsonReaderState spanState, int limit)
    {
        var (baseLine, baseColumn) = PositionOf(spanState);
        var line = exception.LineNumber ?? baseLine;
        var column = exception.BytePositionInLine ?? baseColumn;
        long position = spanBase;
        if (line == baseLine)
        {
            position += column - baseColumn;
        }
        else
        {
            position += JsonText.OffsetOf(_buffer.AsSpan(spanBase, limit - spanBase), line - baseLine, column);
        }

        return (int)Math.Clamp(position, spanBase, limit);
    }

    /// <summary>Reports an error at a buffer position, as a stream offset.</summary>
    /// <param name="code">One of <see cref="JsonErrorCodes"/>.</param>
    /// <param name="message">What went wrong, in the input's terms.</param>
    /// <param name="bufferPosition">Where in the buffer.</param>
    /// <param name="fatal">Whether reading ends here.</param>
    /// <param name="index">The item the error stands for, if any.</param>
    /// <param name="path">The path, when it is not the item's.</param>
    /// <returns><see cref="ScanStep.Failure"/>.</returns>
    protected ScanStep Fail(string code, string message, long bufferPosition, bool fatal, long? index = null, string? path = null)
    {
        _done |= fatal;
        Error = new Error(code, message)
        {
            ItemIndex = index,
            ByteOffset = _bufferOffset + bufferPosition,
            Path = path ?? (index is { } i ? ErrorPath.Element(RootPath, i) : null),
        };
        return ScanStep.Failure;
    }

    /// <summary>Ends reading: every later step is <see cref="ScanStep.End"/>.</summary>
    /// <returns><see cref="ScanStep.End"/>.</returns>
    protected ScanStep Finish()
    {
        _done = true;
        return ScanStep.End;
    }

    /// <summary>The line and column a reader resumed from <paramref name="state"/> reports for its first byte.</summary>
    private static (long Line, long Column) PositionOf(JsonReaderState state)
    {
        // '#' is not JSON anywhere a reader state can stand, so the probe fails on its first byte.
        var probe = new Utf8JsonReader("#"u8, isFinalBlock: false, state);
        try
        {
            probe.Read();
        }
        catch (JsonException exception)
        {
            return (exception.LineNumber ?? 0, exception.BytePositionInLine ?? 0);
        }

        return (0, 0);
    }

    private void MakeRoom()
    {
        _bufferOffset += ReadBuffer.Compact(_buffer, ref _start, ref _end);
        if (_end == _buffer.Length)
        {
            Grow();
        }
    }

    private void Grow()
    {
        // Only reached when one pending item fills the buffer; the item limit was checked before asking for more.
        var size = (int)Math.Min((long)_buffer.Length * 2, (long)Options.MaxItemSize + 1);
        var next = ArrayPool<byte>.Shared.Rent(size);
        _buffer.AsSpan(0, _end).CopyTo(next);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = next;
    }
}

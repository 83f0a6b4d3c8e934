using System.Buffers;
using System.Text.Json;

namespace Millrace.Json.Streaming;

/// <summary>
/// Finds the boundaries of items in UTF-8 JSON read from a stream, one item at a time, without binding them.
/// It keeps one pooled buffer that grows only while a single item does not fit (up to
/// <see cref="JsonStreamOptions.MaxItemSize"/>), and a resumable <see cref="Utf8JsonReader"/> state that is
/// committed only after a complete step, so a step cut off by the end of the buffer is simply scanned again
/// once more bytes have arrived.
/// </summary>
internal sealed class JsonItemScanner : IDisposable
{
    private readonly Stream _stream;
    private readonly JsonStreamOptions _options;
    private readonly JsonReaderOptions _readerOptions;
    private readonly JsonReaderState?[] _stateAfterItem = new JsonReaderState?[(int)JsonTokenType.Null + 1];
    private readonly byte[][] _path;
    private byte[] _buffer;
    private int _start;
    private int _end;
    private long _bufferOffset;
    private bool _endOfStream;
    private JsonReaderState _state;
    private Phase _phase;
    private int _pathLevel;
    private long _nextIndex;
    private long _lineNumber;
    private bool _skipToNextLine;
    private bool _startChecked;
    private bool _scanNextCandidate;
    private int _largestItem;
    private bool _lastReadFilledBuffer;

    // Skipped before the first item, as System.Text.Json's own stream reading does.
    private static ReadOnlySpan<byte> ByteOrderMark => "\uFEFF"u8;

    /// <summary>Initializes a scanner over <paramref name="stream"/>.</summary>
    /// <param name="stream">The UTF-8 JSON source.</param>
    /// <param name="options">Format, path and limits.</param>
    /// <param name="serializerOptions">The serializer options whose comment and trailing-comma settings the reader follows.</param>
    /// <param name="bufferSize">The first buffer's size, when it should differ from <see cref="JsonStreamOptions.BufferSize"/>.</param>
    public JsonItemScanner(Stream stream, JsonStreamOptions options, JsonSerializerOptions serializerOptions, int? bufferSize = null)
    {
        _stream = stream;
        _options = options;
        _path = options.PathSegments;

        // The reader counts depth from the document root; items sit below the array and the path's objects.
        _readerOptions = new JsonReaderOptions
        {
            MaxDepth = options.MaxDepth + _path.Length + 1,
            AllowTrailingCommas = serializerOptions.AllowTrailingCommas,
            CommentHandling = serializerOptions.ReadCommentHandling == JsonCommentHandling.Disallow
                ? JsonCommentHandling.Disallow
                : JsonCommentHandling.Skip,
        };
        _state = new JsonReaderState(_readerOptions);
        ItemReaderOptions = _readerOptions with { MaxDepth = options.MaxDepth };
        RootPath = options.Format == JsonStreamFormat.Lines ? "$" : options.Path;
        _buffer = ArrayPool<byte>.Shared.Rent(bufferSize ?? options.BufferSize);
    }

    private enum Phase
    {
        Root,
        Navigate,
        Items,
        Trailing,
        Done,
    }

    /// <summary>Gets the zero-based index of the item (or error) the last step produced.</summary>
    public long ItemIndex { get; private set; }

    /// <summary>Gets the stream offset of the first byte of the last item.</summary>
    public long ItemOffset => _bufferOffset + ItemStart;

    /// <summary>Gets the error of the last <see cref="ScanStep.Failure"/>.</summary>
    public Error? Error { get; private set; }

    /// <summary>Gets the UTF-8 bytes of the last item; valid until the next <see cref="FillAsync"/>.</summary>
    public ReadOnlySpan<byte> Item => _buffer.AsSpan(ItemStart, ItemLength);

    /// <summary>Gets the buffered bytes from the start of the candidate item to the end of the buffer.</summary>
    public ReadOnlySpan<byte> Candidate => _buffer.AsSpan(ItemStart, _end - ItemStart);

    /// <summary>Gets reader options for reading one item on its own: the depth limit counts from the item.</summary>
    public JsonReaderOptions ItemReaderOptions { get; }

    /// <summary>Gets the path items are counted under: <c>$</c>, or the selected array's path.</summary>
    public string RootPath { get; }

    private int ItemStart { get; set; }

    private int ItemLength { get; set; }

    /// <summary>Scans for the next item in the buffered bytes.</summary>
    /// <returns>What was found.</returns>
    public ScanStep Next()
    {
        if (!_startChecked)
        {
            // Skip a UTF-8 byte order mark, as System.Text.Json's own stream reading does.
            if (_end < 3 && !_endOfStream)
            {
                return ScanStep.NeedMoreData;
            }

            _start = _buffer.AsSpan(0, _end).StartsWith(ByteOrderMark) ? ByteOrderMark.Length : 0;
            _startChecked = true;
        }

        return _phase switch
        {
            Phase.Done => ScanStep.End,
            _ when _options.Format == JsonStreamFormat.Lines => NextLine(),
            _ => NextArrayStep(),
        };
    }

    /// <summary>Reads more bytes from the stream, first making room by dropping what was consumed.</summary>
    /// <param name="cancellationToken">Cancels the read.</param>
    /// <returns>A task that completes when bytes were read or the stream ended.</returns>
    public async ValueTask FillAsync(CancellationToken cancellationToken)
    {
        _bufferOffset += ReadBuffer.Compact(_buffer, ref _start, ref _end);
        if (_end == _buffer.Length)
        {
            Grow();
        }

        var space = _buffer.Length - _end;
        var read = await _stream.ReadAsync(_buffer.AsMemory(_end), cancellationToken).ConfigureAwait(false);
        _lastReadFilledBuffer = read == space;
        _end += read;

        // A seekable stream says when it is exhausted without another read, which lets the last items be read as
        // the final block: in one pass, instead of scanned and then bound.
        _endOfStream = read == 0 || (read < space && _stream.CanSeek && _stream.Position >= _stream.Length);
    }

    /// <summary>Gets the whole document, when one read has buffered all of it and nothing has been scanned yet.</summary>
    /// <param name="document">The document's bytes, after any byte order mark.</param>
    /// <returns><see langword="true"/> when the stream has ended and every byte of it is in the buffer.</returns>
    public bool TryGetWholeDocument(out ReadOnlySpan<byte> document)
    {
        if (!_endOfStream || _bufferOffset != 0 || _start != 0 || _phase != Phase.Root)
        {
            document = default;
            return false;
        }

        document = _buffer.AsSpan(0, _end);
        if (document.StartsWith(ByteOrderMark))
        {
            document = document[ByteOrderMark.Length..];
        }

        return true;
    }

    /// <summary>
    /// Completes the candidate item once it has been bound in one pass and found to be <paramref name="length"/> bytes.
    /// The reader state after an item depends only on the kind of item, so the state saved after the first item of
    /// this kind stands for this one too: the array is continued without scanning the item a second time.
    /// </summary>
    /// <param name="length">The item's length in bytes.</param>
    /// <returns><see langword="false"/> when the item is over the size limit; call <see cref="RejectCandidate"/> then.</returns>
    public bool TryAcceptCandidate(int length)
    {
        if (IsOverSizeLimit(ItemStart + length))
        {
            return false;
        }

        _state = _stateAfterItem[_buffer[ItemStart] == (byte)'[' ? (int)JsonTokenType.StartArray : (int)JsonTokenType.StartObject]!.Value;
        _start = ItemStart + length;
        ItemLength = length;
        ItemIndex = _nextIndex++;
        _largestItem = Math.Max(_largestItem, length);
        return true;
    }

    /// <summary>Makes the next step scan the candidate item instead, which finds and reports whatever went wrong.</summary>
    public void RejectCandidate() => _scanNextCandidate = true;

    /// <summary>Returns the buffer to the pool.</summary>
    public void Dispose()
    {
        var buffer = _buffer;
        _buffer = [];
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private ScanStep NextArrayStep()
    {
        if (TryFindNextCandidate())
        {
            return ScanStep.ItemCandidate;
        }

        var spanBase = _start;
        var spanState = _state;
        var reader = new Utf8JsonReader(_buffer.AsSpan(spanBase, _end - spanBase), _endOfStream, spanState);
        try
        {
            while (true)
            {
                if (!reader.Read())
                {
                    return _phase == Phase.Trailing && _endOfStream ? Finish() : NeedMoreData();
                }

                switch (_phase)
                {
                    case Phase.Root:
                        var expected = _path.Length == 0 ? JsonTokenType.StartArray : JsonTokenType.StartObject;
                        if (reader.TokenType != expected)
                        {
                            return Fail(JsonErrorCodes.NotAnArray, $"The root is {Describe(reader.TokenType)}; expected {Describe(expected)}.", spanBase + reader.TokenStartIndex, fatal: true, path: "$");
                        }

                        _phase = _path.Length == 0 ? Phase.Items : Phase.Navigate;
                        break;

                    case Phase.Navigate:
                        if (reader.TokenType == JsonTokenType.EndObject)
                        {
                            return Fail(JsonErrorCodes.PathNotFound, $"The document has no property '{PathUpTo(_pathLevel + 1)}'.", spanBase + reader.TokenStartIndex, fatal: true, path: PathUpTo(_pathLevel));
                        }

                        var matches = NameEquals(ref reader, _path[_pathLevel]);
                        if (!reader.Read())
                        {
                            return NeedMoreData();
                        }

                        if (matches)
                        {
                            var isLast = _pathLevel == _path.Length - 1;
                            var wanted = isLast ? JsonTokenType.StartArray : JsonTokenType.StartObject;
                            if (reader.TokenType != wanted)
                            {
                                return Fail(JsonErrorCodes.NotAnArray, $"'{PathUpTo(_pathLevel + 1)}' is {Describe(reader.TokenType)}; expected {Describe(wanted)}.", spanBase + reader.TokenStartIndex, fatal: true, path: PathUpTo(_pathLevel + 1));
                            }

                            _pathLevel++;
                            _phase = isLast ? Phase.Items : Phase.Navigate;
                        }
                        else if (IsContainerStart(reader.TokenType) && !reader.TrySkip())
                        {
                            return NeedMoreData();
                        }
                        else if (IsOverSizeLimit(spanBase + (int)reader.BytesConsumed))
                        {
                            // Any skipped property counts, a long string as much as a large object: read in small
                            // pieces, it would have been refused before it was complete.
                            return TooLarge();
                        }

                        break;

                    case Phase.Items:
                        if (reader.TokenType == JsonTokenType.EndArray)
                        {
                            if (_path.Length > 0)
                            {
                                return Finish();
                            }

                            _phase = Phase.Trailing;
                            break;
                        }

                        var tokenStart = (int)reader.TokenStartIndex;
                        var kind = reader.TokenType;
                        if (IsCandidate(kind, spanBase + tokenStart))
                        {
                            ItemStart = spanBase + tokenStart;
                            return ScanStep.ItemCandidate;
                        }

                        if (ShouldReadAhead(kind))
                        {
                            return ScanStep.NeedMoreData;
                        }

                        _scanNextCandidate = false;
                        if (IsContainerStart(kind) && !reader.TrySkip())
                        {
                            return NeedMoreData();
                        }

                        var length = (int)reader.BytesConsumed - tokenStart;
                        if (IsOverSizeLimit(spanBase + (int)reader.BytesConsumed))
                        {
                            return TooLarge();
                        }

                        Commit(spanBase, ref reader);
                        _stateAfterItem[(int)kind] ??= reader.CurrentState;
                        ItemStart = spanBase + tokenStart;
                        ItemLength = length;
                        ItemIndex = _nextIndex++;
                        _largestItem = Math.Max(_largestItem, length);
                        return ScanStep.Item;

                    default:
                        return Fail(JsonErrorCodes.Syntax, "Unexpected content after the array.", spanBase + reader.TokenStartIndex, fatal: true);
                }

                Commit(spanBase, ref reader);
            }
        }
        catch (JsonException exception)
        {
            return FailSyntax(spanBase, spanState, ref reader, exception);
        }
    }

    private ScanStep NextLine()
    {
        while (true)
        {
            var pending = _buffer.AsSpan(_start, _end - _start);
            var newline = pending.IndexOf((byte)'\n');
            if (_skipToNextLine)
            {
                if (newline < 0)
                {
                    _start = _end;
                    return _endOfStream ? Finish() : ScanStep.NeedMoreData;
                }

                _start += newline + 1;
                _lineNumber++;
                _skipToNextLine = false;
                continue;
            }

            int lineLength;
            if (newline >= 0)
            {
                lineLength = newline;
            }
            else if (!_endOfStream)
            {
                return pending.Length > _options.MaxItemSize ? LineTooLarge() : ScanStep.NeedMoreData;
            }
            else if (pending.IsEmpty)
            {
                return Finish();
            }
            else
            {
                lineLength = pending.Length;
            }

            if (lineLength > _options.MaxItemSize)
            {
                return LineTooLarge();
            }

            var line = pending[..lineLength];
            var lead = line.Length - line.TrimStart(" \t\r"u8).Length;
            var content = line[lead..].TrimEnd(" \t\r"u8);
            if (content.IsEmpty)
            {
                _start += Math.Min(lineLength + 1, pending.Length);
                _lineNumber++;
                continue;
            }

            var contentStart = _start + lead;
            var reader = new Utf8JsonReader(content, ItemReaderOptions);
            try
            {
                while (reader.Read())
                {
                }
            }
            catch (JsonException exception)
            {
                var index = _nextIndex++;
                var truncated = IsValidPrefix(content, new JsonReaderState(ItemReaderOptions));
                var position = truncated ? contentStart + content.Length : OffendingPosition(exception, contentStart, default, contentStart + content.Length);
                var offset = contentStart + JsonMessages.OffendingToken(content, (int)reader.BytesConsumed, position - contentStart);
                _start += Math.Min(lineLength + 1, pending.Length);
                _lineNumber++;
                return Fail(
                    truncated ? JsonErrorCodes.Truncated : JsonErrorCodes.Syntax,
                    $"Line {_lineNumber}: {JsonMessages.Malformed(content, offset - contentStart, position - contentStart)}",
                    offset,
                    fatal: !_options.SkipInvalidLines,
                    index: index);
            }

            ItemStart = contentStart;
            ItemLength = content.Length;
            ItemIndex = _nextIndex++;
            _start += Math.Min(lineLength + 1, pending.Length);
            _lineNumber++;
            return ScanStep.Item;
        }
    }

    private ScanStep LineTooLarge()
    {
        var index = _nextIndex++;
        var offset = _start;
        _skipToNextLine = true;
        return Fail(JsonErrorCodes.ItemTooLarge, $"Line {_lineNumber + 1} is longer than MaxItemSize ({_options.MaxItemSize} bytes).", offset, fatal: !_options.SkipInvalidLines, index: index);
    }

    private ScanStep NeedMoreData()
    {
        // Whitespace after the last complete step changes nothing but the reader's line and column, which the error
        // offsets do not depend on: dropping it keeps a run of whitespace from filling the buffer.
        _start = SkipJsonWhitespace(_start);
        if (IsOverSizeLimit(_end))
        {
            return TooLarge();
        }

        if (_endOfStream)
        {
            // The reader only asks for more at the end of the stream when the document stops mid-step.
            return Fail(JsonErrorCodes.Truncated, "The input ends before the array is complete.", _end, fatal: true, index: _phase == Phase.Items ? _nextIndex : null);
        }

        return ScanStep.NeedMoreData;
    }

    /// <summary>
    /// Whether the step in progress (the next item with the comma before it, or a property before the selected array)
    /// reaches <paramref name="position"/> with more than <see cref="JsonStreamOptions.MaxItemSize"/> bytes. The step is
    /// counted from the end of the previous one, leading whitespace aside, and never from where a read happened to end,
    /// so that an item is too large, complete or not, however the input was cut into reads; and the buffer never holds
    /// more than the limit of one step.
    /// </summary>
    private bool IsOverSizeLimit(int position) =>
        position - _start > _options.MaxItemSize && position - SkipJsonWhitespace(_start) > _options.MaxItemSize;

    private ScanStep TooLarge() => _phase == Phase.Items
        ? Fail(JsonErrorCodes.ItemTooLarge, $"The item is larger than MaxItemSize ({_options.MaxItemSize} bytes).", SkipJsonWhitespace(_start), fatal: true, index: _nextIndex)
        : Fail(JsonErrorCodes.ItemTooLarge, $"A value before the selected array is larger than MaxItemSize ({_options.MaxItemSize} bytes).", SkipJsonWhitespace(_start), fatal: true, path: PathUpTo(_pathLevel));

    private ScanStep FailSyntax(int spanBase, JsonReaderState spanState, ref Utf8JsonReader reader, JsonException exception)
    {
        var position = OffendingPosition(exception, spanBase, spanState, _end);
        if (IsOverSizeLimit(position))
        {
            // Read in smaller pieces, the step would have been refused for its size before this byte arrived.
            return TooLarge();
        }

        var truncated = _endOfStream && IsValidPrefix(_buffer.AsSpan(spanBase, _end - spanBase), spanState);
        var offset = truncated ? _end : spanBase + JsonMessages.OffendingToken(_buffer.AsSpan(spanBase, _end - spanBase), (int)reader.BytesConsumed, position - spanBase);
        var tooDeep = reader.CurrentDepth >= _readerOptions.MaxDepth - 1 && offset < _end && _buffer[offset] is (byte)'[' or (byte)'{';
        var code = tooDeep ? JsonErrorCodes.TooDeep : truncated ? JsonErrorCodes.Truncated : JsonErrorCodes.Syntax;
        var message = tooDeep ? $"Nesting is deeper than MaxDepth ({_options.MaxDepth})."
            : truncated ? "The input ends before the array is complete."
            : JsonMessages.Malformed(_buffer.AsSpan(0, _end), offset, position);
        return Fail(code, message, offset, fatal: true, index: _phase == Phase.Items ? _nextIndex : null);
    }

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
    private int OffendingPosition(JsonException exception, int spanBase, JsonReaderState spanState, int limit)
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
            for (var i = baseLine; i < line && position < limit; i++)
            {
                var newline = _buffer.AsSpan((int)position, limit - (int)position).IndexOf((byte)'\n');
                position = newline < 0 ? limit : position + newline + 1;
            }

            position += column;
        }

        return (int)Math.Clamp(position, spanBase, limit);
    }

    /// <summary>
    /// Whether <paramref name="bytes"/> could still become valid JSON if more followed: then a final-block reader that
    /// failed on them failed only because the input ended, wherever it placed the error (after a comma it names the
    /// comma, elsewhere the end).
    /// </summary>
    private static bool IsValidPrefix(ReadOnlySpan<byte> bytes, JsonReaderState state)
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

    private ScanStep Fail(string code, string message, long bufferPosition, bool fatal, long? index = null, string? path = null)
    {
        if (fatal)
        {
            _phase = Phase.Done;
        }

        Error = new Error(code, message)
        {
            ItemIndex = index,
            ByteOffset = _bufferOffset + bufferPosition,
            Path = path ?? (index is { } i ? $"{RootPath}[{i}]" : null),
        };
        return ScanStep.Failure;
    }

    private ScanStep Finish()
    {
        _phase = Phase.Done;
        return ScanStep.End;
    }

    private void Commit(int spanBase, ref Utf8JsonReader reader)
    {
        _start = spanBase + (int)reader.BytesConsumed;
        _state = reader.CurrentState;
    }

    private void Grow()
    {
        // Only reached when one pending item fills the buffer; the item limit was checked before asking for more.
        var size = (int)Math.Min((long)_buffer.Length * 2, (long)_options.MaxItemSize + 1);
        var next = ArrayPool<byte>.Shared.Rent(size);
        _buffer.AsSpan(0, _end).CopyTo(next);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = next;
    }

    private string PathUpTo(int steps)
    {
        var path = "$";
        for (var i = 0; i < steps; i++)
        {
            path += "." + System.Text.Encoding.UTF8.GetString(_path[i]);
        }

        return path;
    }

    /// <summary>
    /// Between two items, the separator is almost always whitespace, a comma and the next item's opening bracket;
    /// finding those by hand spares a reader per item. The committed state stays "after an item", which is exactly
    /// the state after the next one too. Anything else (the closing bracket, a comment, a primitive, bad input)
    /// is left to the reader.
    /// </summary>
    private bool TryFindNextCandidate()
    {
        if (_phase != Phase.Items || _nextIndex == 0 || _scanNextCandidate)
        {
            return false;
        }

        var position = SkipJsonWhitespace(_start);
        if (position >= _end || _buffer[position] != (byte)',')
        {
            return false;
        }

        position = SkipJsonWhitespace(position + 1);
        if (position >= _end || !IsCandidate(_buffer[position] == (byte)'{' ? JsonTokenType.StartObject : _buffer[position] == (byte)'[' ? JsonTokenType.StartArray : JsonTokenType.None, position))
        {
            return false;
        }

        ItemStart = position;
        return true;
    }

    private int SkipJsonWhitespace(int position)
    {
        while (position < _end && _buffer[position] is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')
        {
            position++;
        }

        return position;
    }

    // One-pass binding reads the item with a final-block reader over the rest of the buffer, so it is only tried where
    // the item almost surely ends inside the buffer (a cut-off item would fail and be scanned after all), and only
    // once an item of the same kind has been scanned, which supplies the reader state after such an item.
    private bool IsCandidate(JsonTokenType kind, int itemStart) =>
        !_scanNextCandidate
        && IsContainerStart(kind)
        && _stateAfterItem[(int)kind] is not null
        && (_endOfStream || _end - itemStart > (2 * _largestItem) + 256);

    // Near the end of the buffer an item would be scanned twice. When the source fills the buffer on every read
    // (memory, files, fast networks), sliding the buffer and reading ahead is cheaper; a source that delivers less
    // (a slow producer) gets its complete items handed over at once instead of waiting for more bytes.
    private bool ShouldReadAhead(JsonTokenType kind) =>
        _lastReadFilledBuffer
        && !_endOfStream
        && !_scanNextCandidate
        && _start > 0
        && IsContainerStart(kind)
        && _stateAfterItem[(int)kind] is not null;

    /// <summary>
    /// Compares a property name with a path step. An escaped name is unescaped here rather than by the reader, which
    /// throws on an escaped lone surrogate: such a name simply is not the step (a path is a valid string).
    /// </summary>
    private static bool NameEquals(ref Utf8JsonReader reader, ReadOnlySpan<byte> step)
    {
        var raw = reader.ValueSpan;
        if (!reader.ValueIsEscaped)
        {
            return raw.SequenceEqual(step);
        }

        // Unescaped, a name is never longer than escaped.
        Span<byte> name = raw.Length <= 256 ? stackalloc byte[256] : new byte[raw.Length];
        var length = 0;
        for (var i = 0; i < raw.Length;)
        {
            if (raw[i] != (byte)'\\')
            {
                name[length++] = raw[i++];
                continue;
            }

            // The reader has checked every escape's form; only what \u escapes stand for is left to check.
            var escaped = raw[i + 1];
            if (escaped != (byte)'u')
            {
                name[length++] = escaped switch
                {
                    (byte)'b' => (byte)'\b',
                    (byte)'f' => (byte)'\f',
                    (byte)'n' => (byte)'\n',
                    (byte)'r' => (byte)'\r',
                    (byte)'t' => (byte)'\t',
                    _ => escaped,
                };
                i += 2;
                continue;
            }

            var code = HexValue(raw.Slice(i + 2, 4));
            i += 6;
            if (char.IsLowSurrogate((char)code))
            {
                return false;
            }

            if (char.IsHighSurrogate((char)code))
            {
                if (i + 6 > raw.Length || raw[i] != (byte)'\\' || raw[i + 1] != (byte)'u' || !char.IsLowSurrogate((char)HexValue(raw.Slice(i + 2, 4))))
                {
                    return false;
                }

                code = char.ConvertToUtf32((char)code, (char)HexValue(raw.Slice(i + 2, 4)));
                i += 6;
            }

            length += new System.Text.Rune(code).EncodeToUtf8(name[length..]);
        }

        return name[..length].SequenceEqual(step);
    }

    private static int HexValue(ReadOnlySpan<byte> hex) =>
        int.Parse(hex, System.Globalization.NumberStyles.AllowHexSpecifier, System.Globalization.CultureInfo.InvariantCulture);

    private static bool IsContainerStart(JsonTokenType token) => token is JsonTokenType.StartObject or JsonTokenType.StartArray;

    private static string Describe(JsonTokenType token) => token switch
    {
        JsonTokenType.StartArray => "an array",
        JsonTokenType.StartObject => "an object",
        JsonTokenType.String => "a string",
        JsonTokenType.Number => "a number",
        JsonTokenType.True or JsonTokenType.False => "a boolean",
        JsonTokenType.Null => "null",
        _ => token.ToString(),
    };
}

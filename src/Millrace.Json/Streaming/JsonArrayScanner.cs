using System.Text.Json;

namespace Millrace.Json.Streaming;

/// <summary>
/// Finds the items of a JSON array: the root, or the one <see cref="JsonStreamOptions.Path"/> selects (navigating to it
/// is in <c>JsonArrayScanner.Path.cs</c>). A resumable <see cref="Utf8JsonReader"/> state is committed only after a
/// complete step, so a step cut off by the end of the buffer is simply scanned again once more bytes have arrived.
/// Container items that surely end inside the buffer are offered as <see cref="ScanStep.ItemCandidate"/> to be bound
/// in one pass.
/// </summary>
internal sealed partial class JsonArrayScanner : JsonItemScanner
{
    private readonly JsonReaderOptions _readerOptions;
    private readonly JsonReaderState?[] _stateAfterItem = new JsonReaderState?[(int)JsonTokenType.Null + 1];
    private readonly byte[][] _path;
    private readonly bool _offerCandidates;
    private JsonReaderState _state;
    private Phase _phase;
    private int _pathLevel;
    private bool _scanNextCandidate;
    private int _largestItem;

    /// <summary>Initializes a scanner over <paramref name="stream"/>.</summary>
    /// <param name="stream">The UTF-8 JSON source.</param>
    /// <param name="options">Path and limits.</param>
    /// <param name="serializerOptions">The serializer options whose comment and trailing-comma settings the reader follows.</param>
    /// <param name="bufferSize">The first buffer's size, when it should differ from <see cref="JsonStreamOptions.BufferSize"/>.</param>
    /// <param name="offerCandidates">Whether container items are offered to be bound in one pass.</param>
    public JsonArrayScanner(Stream stream, JsonStreamOptions options, JsonSerializerOptions serializerOptions, int? bufferSize = null, bool offerCandidates = true)
        : base(stream, options, serializerOptions, options.Path, bufferSize)
    {
        _offerCandidates = offerCandidates;
        _path = options.PathSegments;

        // The reader counts depth from the document root; items sit below the array and the path's objects.
        _readerOptions = ItemReaderOptions with { MaxDepth = options.MaxDepth + _path.Length + 1 };
        _state = new JsonReaderState(_readerOptions);
    }

    private enum Phase
    {
        Root,
        Navigate,
        Items,
        Trailing,
    }

    /// <summary>Gets the whole document, when one read has buffered all of it and nothing has been scanned yet.</summary>
    /// <param name="document">The document's bytes, after any byte order mark.</param>
    /// <returns><see langword="true"/> when the stream has ended and every byte of it is in the buffer.</returns>
    public bool TryGetWholeDocument(out ReadOnlySpan<byte> document)
    {
        if (!EndOfStream || BufferOffset != 0 || Start != 0 || _phase != Phase.Root)
        {
            document = default;
            return false;
        }

        document = Buffer.AsSpan(0, End);
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
    /// <returns><see langword="false"/> when the item is over the size limit or not UTF-8; call <see cref="RejectCandidate"/> then.</returns>
    public override bool TryAcceptCandidate(int length)
    {
        var itemStart = ItemStart;
        if (IsOverSizeLimit(itemStart + length) || JsonText.IndexOfInvalidUtf8(Buffer.AsSpan(itemStart, length)) >= 0)
        {
            return false;
        }

        _state = _stateAfterItem[Buffer[itemStart] == (byte)'[' ? (int)JsonTokenType.StartArray : (int)JsonTokenType.StartObject]!.Value;
        Start = itemStart + length;
        _largestItem = Math.Max(_largestItem, length);
        Emit(itemStart, length);
        return true;
    }

    /// <inheritdoc/>
    public override void RejectCandidate() => _scanNextCandidate = true;

    /// <inheritdoc/>
    protected override ScanStep Scan()
    {
        if (TryFindNextCandidate())
        {
            return ScanStep.ItemCandidate;
        }

        var spanBase = Start;
        var spanState = _state;
        var reader = new Utf8JsonReader(Buffer.AsSpan(spanBase, End - spanBase), EndOfStream, spanState);
        try
        {
            while (true)
            {
                if (!reader.Read())
                {
                    return _phase == Phase.Trailing && EndOfStream ? Finish() : NeedMoreData();
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
                        if (!TryNavigate(ref reader, spanBase, out var stop))
                        {
                            return stop;
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
                        _largestItem = Math.Max(_largestItem, length);
                        return Emit(spanBase + tokenStart, length);

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

    private static bool IsContainerStart(JsonTokenType token) => token is JsonTokenType.StartObject or JsonTokenType.StartArray;

    private ScanStep NeedMoreData()
    {
        // Whitespace after the last complete step changes nothing but the reader's line and column, which the error
        // offsets do not depend on: dropping it keeps a run of whitespace from filling the buffer.
        Start = SkipJsonWhitespace(Start);
        if (IsOverSizeLimit(End))
        {
            return TooLarge();
        }

        if (EndOfStream)
        {
            // The reader only asks for more at the end of the stream when the document stops mid-step.
            return Fail(JsonErrorCodes.Truncated, "The input ends before the array is complete.", End, fatal: true, index: _phase == Phase.Items ? NextIndex : null);
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
        position - Start > Options.MaxItemSize && position - SkipJsonWhitespace(Start) > Options.MaxItemSize;

    private ScanStep TooLarge() => _phase == Phase.Items
        ? Fail(JsonErrorCodes.ItemTooLarge, $"The item is larger than MaxItemSize ({Options.MaxItemSize} bytes).", SkipJsonWhitespace(Start), fatal: true, index: NextIndex)
        : Fail(JsonErrorCodes.ItemTooLarge, $"A value before the selected array is larger than MaxItemSize ({Options.MaxItemSize} bytes).", SkipJsonWhitespace(Start), fatal: true, path: PathUpTo(_pathLevel));

    private ScanStep FailSyntax(int spanBase, JsonReaderState spanState, ref Utf8JsonReader reader, JsonException exception)
    {
        var position = OffendingPosition(exception, spanBase, spanState, End);
        if (IsOverSizeLimit(position))
        {
            // Read in smaller pieces, the step would have been refused for its size before this byte arrived.
            return TooLarge();
        }

        var scanned = Buffer.AsSpan(spanBase, End - spanBase);
        var truncated = EndOfStream && IsValidPrefix(scanned, spanState);
        var offset = truncated ? End : spanBase + JsonMessages.OffendingToken(scanned, (int)reader.BytesConsumed, position - spanBase);
        var tooDeep = reader.CurrentDepth >= _readerOptions.MaxDepth - 1 && offset < End && Buffer[offset] is (byte)'[' or (byte)'{';
        var code = tooDeep ? JsonErrorCodes.TooDeep : truncated ? JsonErrorCodes.Truncated : JsonErrorCodes.Syntax;
        var message = tooDeep ? $"Nesting is deeper than MaxDepth ({Options.MaxDepth})."
            : truncated ? "The input ends before the array is complete."
            : JsonMessages.Malformed(Buffer.AsSpan(0, End), offset, position);
        return Fail(code, message, offset, fatal: true, index: _phase == Phase.Items ? NextIndex : null);
    }

    private void Commit(int spanBase, ref Utf8JsonReader reader)
    {
        Start = spanBase + (int)reader.BytesConsumed;
        _state = reader.CurrentState;
    }

    /// <summary>
    /// Between two items, the separator is almost always whitespace, a comma and the next item's opening bracket;
    /// finding those by hand spares a reader per item. The committed state stays "after an item", which is exactly
    /// the state after the next one too. Anything else (the closing bracket, a comment, a primitive, bad input)
    /// is left to the reader.
    /// </summary>
    private bool TryFindNextCandidate()
    {
        if (!_offerCandidates || _phase != Phase.Items || NextIndex == 0 || _scanNextCandidate)
        {
            return false;
        }

        var buffer = Buffer;
        var end = End;
        var position = SkipJsonWhitespace(Start);
        if (position >= end || buffer[position] != (byte)',')
        {
            return false;
        }

        position = SkipJsonWhitespace(position + 1);
        if (position >= end || !IsCandidate(buffer[position] == (byte)'{' ? JsonTokenType.StartObject : buffer[position] == (byte)'[' ? JsonTokenType.StartArray : JsonTokenType.None, position))
        {
            return false;
        }

        ItemStart = position;
        return true;
    }

    /// <summary>Gets the position of the first byte at or after <paramref name="position"/> that is not JSON whitespace.</summary>
    /// <param name="bytes">The bytes.</param>
    /// <param name="position">Where to start.</param>
    /// <returns>The position, or the length of <paramref name="bytes"/>.</returns>
    internal static int SkipJsonWhitespace(ReadOnlySpan<byte> bytes, int position)
    {
        while (position < bytes.Length && bytes[position] is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')
        {
            position++;
        }

        return position;
    }

    private int SkipJsonWhitespace(int position) => SkipJsonWhitespace(Buffer.AsSpan(0, End), position);

    // One-pass binding reads the item with a final-block reader over the rest of the buffer, so it is only tried where
    // the item almost surely ends inside the buffer (a cut-off item would fail and be scanned after all), and only
    // once an item of the same kind has been scanned, which supplies the reader state after such an item.
    private bool IsCandidate(JsonTokenType kind, int itemStart) =>
        _offerCandidates
        && !_scanNextCandidate
        && IsContainerStart(kind)
        && _stateAfterItem[(int)kind] is not null
        && itemStart < SurelyCompleteBefore;

    // Where an item starting before surely ends inside the buffer: anywhere once the buffer holds the stream's end,
    // else at least twice the longest item so far (and a little) before the buffer's end.
    private int SurelyCompleteBefore => EndOfStream ? End : End - ((2 * _largestItem) + 256);

    // Near the end of the buffer an item would be scanned twice. When the source fills the buffer on every read
    // (memory, files, fast networks), sliding the buffer and reading ahead is cheaper; a source that delivers less
    // (a slow producer) gets its complete items handed over at once instead of waiting for more bytes. Only where
    // candidates are offered: they are what keeps an item away from the buffer's end, and without them every
    // container item would slide the buffer.
    private bool ShouldReadAhead(JsonTokenType kind) =>
        _offerCandidates
        && LastReadFilledBuffer
        && !EndOfStream
        && !_scanNextCandidate
        && Start > 0
        && IsContainerStart(kind)
        && _stateAfterItem[(int)kind] is not null;
}

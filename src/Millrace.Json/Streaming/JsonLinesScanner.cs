using System.Text.Json;

namespace Millrace.Json.Streaming;

/// <summary>
/// Finds the items of NDJSON: one JSON value a line, blank lines ignored. Each line is checked on its own with a fresh
/// reader, so a malformed line is reported with its line number and, with <see cref="JsonStreamOptions.SkipInvalidLines"/>,
/// reading goes on with the next line (a line over <see cref="JsonStreamOptions.MaxItemSize"/> is skipped unread).
/// </summary>
internal sealed class JsonLinesScanner : JsonItemScanner
{
    private long _lineNumber;
    private bool _skipToNextLine;

    /// <summary>Initializes a scanner over <paramref name="stream"/>.</summary>
    /// <param name="stream">The UTF-8 NDJSON source.</param>
    /// <param name="options">Limits and whether invalid lines are skipped.</param>
    /// <param name="serializerOptions">The serializer options whose comment and trailing-comma settings the reader follows.</param>
    /// <param name="bufferSize">The first buffer's size, when it should differ from <see cref="JsonStreamOptions.BufferSize"/>.</param>
    public JsonLinesScanner(Stream stream, JsonStreamOptions options, JsonSerializerOptions serializerOptions, int? bufferSize = null)
        : base(stream, options, serializerOptions, "$", bufferSize)
    {
    }

    /// <inheritdoc/>
    protected override ScanStep Scan()
    {
        while (true)
        {
            var pending = Buffer.AsSpan(Start, End - Start);
            var newline = pending.IndexOf((byte)'\n');
            if (_skipToNextLine)
            {
                if (newline < 0)
                {
                    Start = End;
                    return EndOfStream ? Finish() : ScanStep.NeedMoreData;
                }

                Start += newline + 1;
                _lineNumber++;
                _skipToNextLine = false;
                continue;
            }

            int lineLength;
            if (newline >= 0)
            {
                lineLength = newline;
            }
            else if (!EndOfStream)
            {
                return pending.Length > Options.MaxItemSize ? LineTooLarge() : ScanStep.NeedMoreData;
            }
            else if (pending.IsEmpty)
            {
                return Finish();
            }
            else
            {
                lineLength = pending.Length;
            }

            if (lineLength > Options.MaxItemSize)
            {
                return LineTooLarge();
            }

            var line = pending[..lineLength];
            var lead = line.Length - line.TrimStart(" \t\r"u8).Length;
            var content = line[lead..].TrimEnd(" \t\r"u8);
            var contentStart = Start + lead;

            // The last line may end without a newline; every other one is consumed with its own.
            var lineEnd = Start + Math.Min(lineLength + 1, pending.Length);
            if (content.IsEmpty)
            {
                Start = lineEnd;
                _lineNumber++;
                continue;
            }

            var reader = new Utf8JsonReader(content, ItemReaderOptions);
            try
            {
                while (reader.Read())
                {
                }
            }
            catch (JsonException exception)
            {
                Start = lineEnd;
                _lineNumber++;
                return FailLine(content, contentStart, ref reader, exception);
            }

            Start = lineEnd;
            _lineNumber++;
            return Emit(contentStart, content.Length);
        }
    }

    /// <inheritdoc/>
    protected override bool MalformedItemEndsReading => !Options.SkipInvalidLines;

    private ScanStep FailLine(ReadOnlySpan<byte> content, int contentStart, ref Utf8JsonReader reader, JsonException exception)
    {
        var index = TakeIndex();
        var truncated = IsValidPrefix(content, new JsonReaderState(ItemReaderOptions));
        var position = truncated ? contentStart + content.Length : OffendingPosition(exception, contentStart, default, contentStart + content.Length);
        var offset = contentStart + JsonMessages.OffendingToken(content, (int)reader.BytesConsumed, position - contentStart);
        return Fail(
            truncated ? JsonErrorCodes.Truncated : JsonErrorCodes.Syntax,
            $"Line {_lineNumber}: {JsonMessages.Malformed(content, offset - contentStart, position - contentStart)}",
            offset,
            fatal: !Options.SkipInvalidLines,
            index: index);
    }

    private ScanStep LineTooLarge()
    {
        var index = TakeIndex();
        _skipToNextLine = true;
        return Fail(JsonErrorCodes.ItemTooLarge, $"Line {_lineNumber + 1} is longer than MaxItemSize ({Options.MaxItemSize} bytes).", Start, fatal: !Options.SkipInvalidLines, index: index);
    }
}

namespace Millrace.Json.Streaming;

/// <summary>
/// The enumerable and enumerator behind <see cref="JsonItems.ReadRawAsync(Stream, JsonStreamOptions?, CancellationToken)"/>,
/// written by hand rather than as an async iterator: an item already in the buffer is handed over by a synchronously
/// completed <see cref="ValueTask{TResult}"/>, without the state machine an iterator runs for every item, and only a
/// refill of the buffer awaits.
/// </summary>
internal sealed class JsonRawItemStream(Stream utf8Json, JsonStreamOptions options, CancellationToken readToken)
    : IAsyncEnumerable<Result<JsonRawItem>>
{
    // Raw items are read as strict JSON: the reader settings of default serializer options, without their resolver.
    private static readonly System.Text.Json.JsonSerializerOptions StrictJson = new();

    private int _enumerated;

    public IAsyncEnumerator<Result<JsonRawItem>> GetAsyncEnumerator(CancellationToken cancellationToken = default)
    {
        // The stream is read forward only, so it can be enumerated once, as the async iterators of ReadAsync can.
        if (Interlocked.Exchange(ref _enumerated, 1) != 0)
        {
            throw new InvalidOperationException("The items of a stream can be enumerated only once.");
        }

        var token = cancellationToken.CanBeCanceled ? cancellationToken : readToken;
        return new Enumerator(JsonItemScanner.Create(utf8Json, options, StrictJson, offerCandidates: false), token);
    }

    private sealed class Enumerator(JsonItemScanner scanner, CancellationToken cancellationToken) : IAsyncEnumerator<Result<JsonRawItem>>
    {
        public Result<JsonRawItem> Current { get; private set; }

        public ValueTask<bool> MoveNextAsync()
        {
            cancellationToken.ThrowIfCancellationRequested();
            var found = TryStep();
            return found is { } done ? new ValueTask<bool>(done) : RefillAsync();
        }

        public ValueTask DisposeAsync() => scanner.DisposeAsync();

        private async ValueTask<bool> RefillAsync()
        {
            while (true)
            {
                await scanner.FillAsync(cancellationToken).ConfigureAwait(false);
                cancellationToken.ThrowIfCancellationRequested();
                if (TryStep() is { } done)
                {
                    return done;
                }
            }
        }

        // True with an item or an error in Current, false at the end, null when the buffer needs more bytes.
        private bool? TryStep()
        {
            switch (scanner.Next())
            {
                case ScanStep.Item:
                    Current = Result<JsonRawItem>.Success(new JsonRawItem(scanner.ItemIndex, scanner.ItemOffset, scanner.ItemMemory));
                    return true;
                case ScanStep.Failure:
                    Current = Result<JsonRawItem>.Failure(scanner.Error!);
                    return true;
                case ScanStep.NeedMoreData:
                    return null;
                default:
                    Current = default;
                    return false;
            }
        }
    }
}

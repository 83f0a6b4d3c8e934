using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace Millrace.Json.Streaming;

/// <summary>
/// Turns what the <see cref="JsonItemScanner"/> finds into results for <typeparamref name="T"/>, synchronously, so
/// that both the streaming and the materializing loops await only when the buffer needs more bytes.
/// </summary>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class JsonItemReader<T>(JsonItemScanner scanner, JsonTypeInfo<T> typeInfo)
{
    private readonly JsonConverter<T> _converter = (JsonConverter<T>)typeInfo.Converter;
    private readonly byte _expectedFirstByte = JsonBinder<T>.ExpectedFirstByte(typeInfo);
    private readonly string?[] _mismatchMessages = new string?[128];

    // After an item failed to bind, the next one is bound the careful way only: a feed of items that do not fit
    // would otherwise pay for two exceptions per item, one in the single pass and one in the careful binding.
    private bool _lastItemFailed;

    /// <summary>Reads the next item from the buffered bytes.</summary>
    /// <param name="item">The item's value or error, when the step is <see cref="ScanStep.Item"/>.</param>
    /// <returns><see cref="ScanStep.Item"/>, <see cref="ScanStep.NeedMoreData"/> or <see cref="ScanStep.End"/>.</returns>
    public ScanStep TryRead(out Result<T> item)
    {
        while (true)
        {
            switch (scanner.Next())
            {
                case ScanStep.Item:
                    item = IsMismatch(scanner.Item[0])
                        ? Result<T>.Failure(JsonBinder<T>.Mismatch(MismatchMessage(scanner.Item[0]), scanner.ItemIndex, scanner.ItemOffset, scanner.RootPath))
                        : JsonBinder<T>.Bind(scanner.Item, typeInfo, scanner.ItemIndex, scanner.ItemOffset, scanner.RootPath);
                    _lastItemFailed = item.IsFailure;
                    return ScanStep.Item;
                case ScanStep.ItemCandidate:
                    if (!_lastItemFailed
                        && !IsMismatch(scanner.Candidate[0])
                        && JsonBinder<T>.TryBindInOnePass(scanner.Candidate, _converter, typeInfo.Options, scanner.ItemReaderOptions, out var value, out var length)
                        && scanner.TryAcceptCandidate(length))
                    {
                        item = JsonBinder<T>.Complete(value, scanner.ItemIndex, scanner.ItemOffset, scanner.RootPath);
                        return ScanStep.Item;
                    }

                    scanner.RejectCandidate();
                    break;
                case ScanStep.Failure:
                    item = Result<T>.Failure(scanner.Error!);
                    return ScanStep.Item;
                case var step:
                    item = default;
                    return step;
            }
        }
    }

    /// <summary>Whether the item's first byte already shows that it cannot bind; <c>null</c> is left to the binder.</summary>
    private bool IsMismatch(byte first) => _expectedFirstByte != 0 && first != _expectedFirstByte && first != (byte)'n';

    // One message per kind of item, so that a feed of mismatched items allocates only their errors.
    private string MismatchMessage(byte first) =>
        _mismatchMessages[first & 0x7F] ??= JsonBinder<T>.MismatchMessage(first, _expectedFirstByte);
}

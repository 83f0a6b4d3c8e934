using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace Millrace.Json.Streaming;

/// <summary>
/// The one-worker engine (<see cref="JsonStreamOptions.BindingWorkers"/> = 1; the choice is
/// <c>JsonItems.ReadThroughEngine</c>'s): turns what the <see cref="JsonItemScanner"/> finds into results for
/// <typeparamref name="T"/> on the consumer's thread, synchronously, so that both the streaming and the materializing
/// loops await only when the buffer needs more bytes.
/// </summary>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class JsonInlineEngine<T>(JsonItemScanner scanner, JsonTypeInfo<T> typeInfo)
{
    private readonly JsonConverter<T> _converter = (JsonConverter<T>)typeInfo.Converter;
    private readonly JsonItemBinder<T> _binder = new(typeInfo, scanner.RootPath);

    // After an item failed to bind, the next one is bound the careful way only: a feed of items that do not fit
    // would otherwise pay for two exceptions per item, one in the single pass and one in the careful binding.
    private bool _lastItemFailed;

    /// <summary>Notes that the items just passed over were bound elsewhere, all of them in one pass, so the next one may be too.</summary>
    public void PassedItemsBound() => _lastItemFailed = false;

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
                    item = _binder.Bind(scanner.Item, scanner.ItemIndex, scanner.ItemOffset);
                    _lastItemFailed = item.IsFailure;
                    return ScanStep.Item;
                case ScanStep.ItemCandidate:
                    if (!_lastItemFailed
                        && !_binder.IsMismatch(scanner.Candidate[0])
                        && JsonBinding<T>.TryBindInOnePass(scanner.Candidate, _converter, typeInfo.Options, scanner.ItemReaderOptions, out var value, out var length)
                        && scanner.TryAcceptCandidate(length))
                    {
                        item = JsonBinding<T>.Complete(value, scanner.ItemIndex, scanner.ItemOffset, scanner.RootPath);
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
}

using System.Diagnostics.CodeAnalysis;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace Millrace.Json.Streaming;

/// <summary>
/// Reads the items of a JSON array (or the lines of NDJSON) from a stream one at a time. Each item is bound
/// only when the consumer asks for it, so stopping after k items does O(k) work, and an item is handed over as
/// soon as its last byte has arrived.
/// </summary>
/// <remarks>
/// <para>What happens on bad input, exactly:</para>
/// <list type="bullet">
/// <item>An item that is well-formed JSON but does not bind (wrong type, overflow, missing required member) yields a
/// <see cref="JsonErrorCodes.Bind"/> failure with its index, byte offset and member path; reading goes on.</item>
/// <item>An item that is <c>null</c> yields <see cref="JsonErrorCodes.NullItem"/> unless the item type is a nullable value type; reading goes on.</item>
/// <item>A syntax error in an array yields one <see cref="JsonErrorCodes.Syntax"/> failure (or <see cref="JsonErrorCodes.Truncated"/>
/// when the input simply ends) with its byte offset, and the stream ends: without a well-formed array there is no next item to find.</item>
/// <item>A malformed NDJSON line yields a failure with its offset; the stream ends, or with
/// <see cref="JsonStreamOptions.SkipInvalidLines"/> goes on with the next line.</item>
/// <item>An item over <see cref="JsonStreamOptions.MaxItemSize"/> or deeper than <see cref="JsonStreamOptions.MaxDepth"/>
/// yields <see cref="JsonErrorCodes.ItemTooLarge"/> or <see cref="JsonErrorCodes.TooDeep"/> and ends the stream (an oversized NDJSON line is skipped when
/// <see cref="JsonStreamOptions.SkipInvalidLines"/> is set).</item>
/// <item>Cancellation throws <see cref="OperationCanceledException"/> between items and between reads.</item>
/// </list>
/// </remarks>
public static class JsonItems
{
    private const int WholeDocumentLimit = 1024 * 1024;

    // What System.Text.Json uses when JsonSerializerOptions.MaxDepth is 0.
    private const int DefaultSerializerMaxDepth = 64;

    /// <summary>Streams the items of the JSON array in <paramref name="utf8Json"/>.</summary>
    /// <typeparam name="T">The item type.</typeparam>
    /// <param name="utf8Json">UTF-8 JSON; read forward only, never seeked, and not disposed.</param>
    /// <param name="typeInfo">Source-generated type information for <typeparamref name="T"/>.</param>
    /// <param name="options">Format, path and limits; <see cref="JsonStreamOptions.Default"/> when <see langword="null"/>. Frozen by this call.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>Each item's value or error, in order.</returns>
    public static IAsyncEnumerable<Result<T>> ReadAsync<T>(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(utf8Json);
        ArgumentNullException.ThrowIfNull(typeInfo);
        return ReadThroughEngine(utf8Json, typeInfo, Freeze(options), cancellationToken);
    }

    /// <summary>Streams the items of the JSON array read from <paramref name="utf8Json"/>.</summary>
    /// <typeparam name="T">The item type.</typeparam>
    /// <param name="utf8Json">UTF-8 JSON; read to its end or until the consumer stops, and not completed.</param>
    /// <param name="typeInfo">Source-generated type information for <typeparamref name="T"/>.</param>
    /// <param name="options">Format, path and limits; <see cref="JsonStreamOptions.Default"/> when <see langword="null"/>. Frozen by this call.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>Each item's value or error, in order.</returns>
    public static IAsyncEnumerable<Result<T>> ReadAsync<T>(PipeReader utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(utf8Json);
        return ReadAsync(utf8Json.AsStream(leaveOpen: true), typeInfo, options, cancellationToken);
    }

    /// <summary>Streams the items of the JSON array in <paramref name="utf8Json"/>, binding them by reflection.</summary>
    /// <typeparam name="T">The item type.</typeparam>
    /// <param name="utf8Json">UTF-8 JSON; read forward only, never seeked, and not disposed.</param>
    /// <param name="serializerOptions">Serializer options; <see cref="JsonSerializerOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="options">Format, path and limits; <see cref="JsonStreamOptions.Default"/> when <see langword="null"/>. Frozen by this call.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>Each item's value or error, in order.</returns>
    [RequiresUnreferencedCode("Binding by reflection may need members that trimming removes; pass a source-generated JsonTypeInfo<T> instead.")]
    [RequiresDynamicCode("Binding by reflection may generate code at run time; pass a source-generated JsonTypeInfo<T> instead.")]
    public static IAsyncEnumerable<Result<T>> ReadAsync<T>(Stream utf8Json, JsonSerializerOptions? serializerOptions = null, JsonStreamOptions? options = null, CancellationToken cancellationToken = default)
        => ReadAsync(utf8Json, TypeInfo<T>(serializerOptions), options, cancellationToken);

    /// <summary>Streams the items of the JSON array read from <paramref name="utf8Json"/>, binding them by reflection.</summary>
    /// <typeparam name="T">The item type.</typeparam>
    /// <param name="utf8Json">UTF-8 JSON; read to its end or until the consumer stops, and not completed.</param>
    /// <param name="serializerOptions">Serializer options; <see cref="JsonSerializerOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="options">Format, path and limits; <see cref="JsonStreamOptions.Default"/> when <see langword="null"/>. Frozen by this call.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>Each item's value or error, in order.</returns>
    [RequiresUnreferencedCode("Binding by reflection may need members that trimming removes; pass a source-generated JsonTypeInfo<T> instead.")]
    [RequiresDynamicCode("Binding by reflection may generate code at run time; pass a source-generated JsonTypeInfo<T> instead.")]
    public static IAsyncEnumerable<Result<T>> ReadAsync<T>(PipeReader utf8Json, JsonSerializerOptions? serializerOptions = null, JsonStreamOptions? options = null, CancellationToken cancellationToken = default)
        => ReadAsync(utf8Json, TypeInfo<T>(serializerOptions), options, cancellationToken);

    /// <summary>
    /// Streams the items of the JSON array in <paramref name="utf8Json"/> (or the lines of NDJSON) as their UTF-8 bytes,
    /// unbound: the same items, limits, indices, offsets and errors as <see cref="ReadAsync{T}(Stream, JsonTypeInfo{T}, JsonStreamOptions?, CancellationToken)"/>,
    /// at the speed of System.Text.Json's tokenizer, for counting, validating or forwarding items, or binding them elsewhere.
    /// </summary>
    /// <param name="utf8Json">UTF-8 JSON; read forward only, never seeked, and not disposed.</param>
    /// <param name="options">Format, path and limits; <see cref="JsonStreamOptions.Default"/> when <see langword="null"/>. Frozen by this call. A larger <see cref="JsonStreamOptions.BufferSize"/> (say 1 MiB) suits large inputs.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>
    /// Each item's bytes (valid until the enumerator moves on: see <see cref="JsonRawItem.Utf8"/>) or the error that stands
    /// in its place, in order. The JSON is read strictly: no comments, no trailing commas. Items are checked to be
    /// well-formed JSON as the tokenizer reads them; a value's strings are not decoded.
    /// </returns>
    public static IAsyncEnumerable<Result<JsonRawItem>> ReadRawAsync(Stream utf8Json, JsonStreamOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(utf8Json);
        return new JsonRawItemStream(utf8Json, Freeze(options), cancellationToken);
    }

    /// <summary>Reads every item of the JSON array into a list, stopping at the first failure.</summary>
    /// <typeparam name="T">The item type.</typeparam>
    /// <param name="utf8Json">UTF-8 JSON; read forward only, never seeked, and not disposed.</param>
    /// <param name="typeInfo">Source-generated type information for <typeparamref name="T"/>.</param>
    /// <param name="options">Format, path and limits; <see cref="JsonStreamOptions.Default"/> when <see langword="null"/>. Frozen by this call.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>All items, or the first item's error.</returns>
    /// <remarks>
    /// A top-level array of up to 1 MiB (and within <see cref="JsonStreamOptions.MaxItemSize"/>) in a seekable stream is
    /// read in one block and bound with one call of the list converter; every other input is read item by item. The
    /// result, and any error with its position, is the same either way.
    /// </remarks>
    public static ValueTask<Result<List<T>>> ReadListAsync<T>(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(utf8Json);
        ArgumentNullException.ThrowIfNull(typeInfo);
        return ReadListCore(utf8Json, typeInfo, Freeze(options), cancellationToken);
    }

    /// <summary>Reads every item of the JSON array into a list by reflection, stopping at the first failure.</summary>
    /// <typeparam name="T">The item type.</typeparam>
    /// <param name="utf8Json">UTF-8 JSON; read forward only, never seeked, and not disposed.</param>
    /// <param name="serializerOptions">Serializer options; <see cref="JsonSerializerOptions.Default"/> when <see langword="null"/>.</param>
    /// <param name="options">Format, path and limits; <see cref="JsonStreamOptions.Default"/> when <see langword="null"/>. Frozen by this call.</param>
    /// <param name="cancellationToken">Cancels reading.</param>
    /// <returns>All items, or the first item's error.</returns>
    [RequiresUnreferencedCode("Binding by reflection may need members that trimming removes; pass a source-generated JsonTypeInfo<T> instead.")]
    [RequiresDynamicCode("Binding by reflection may generate code at run time; pass a source-generated JsonTypeInfo<T> instead.")]
    public static ValueTask<Result<List<T>>> ReadListAsync<T>(Stream utf8Json, JsonSerializerOptions? serializerOptions = null, JsonStreamOptions? options = null, CancellationToken cancellationToken = default)
        => ReadListAsync(utf8Json, TypeInfo<T>(serializerOptions), options, cancellationToken);

    [RequiresUnreferencedCode("Binding by reflection may need members that trimming removes.")]
    [RequiresDynamicCode("Binding by reflection may generate code at run time.")]
    internal static JsonTypeInfo<T> TypeInfo<T>(JsonSerializerOptions? serializerOptions)
    {
        var resolved = serializerOptions ?? JsonSerializerOptions.Default;
        resolved.MakeReadOnly(populateMissingResolver: true);
        return (JsonTypeInfo<T>)resolved.GetTypeInfo(typeof(T));
    }

    private static JsonStreamOptions Freeze(JsonStreamOptions? options)
    {
        var resolved = options ?? JsonStreamOptions.Default;
        resolved.MakeReadOnly();
        return resolved;
    }

    /// <summary>
    /// Reads a stream's items through the engine <see cref="JsonStreamOptions.BindingWorkers"/> asks for, chosen here and
    /// nowhere else. Each engine finds the items with a <see cref="JsonItemScanner"/> and binds them with a
    /// <see cref="JsonItemBinder{T}"/>; they differ in who binds: one worker, the consumer's own thread, binds each item
    /// as it is asked for (<see cref="JsonInlineEngine{T}"/>); two over an array, a worker binds the buffered items ahead
    /// of the consumer (<see cref="JsonAheadEngine{T}"/>); more, or NDJSON lines, the scanner copies the items into
    /// batches that the other workers bind (<see cref="JsonBatchEngine{T}"/>). The items, errors and offsets are the same.
    /// </summary>
    private static IAsyncEnumerable<Result<T>> ReadThroughEngine<T>(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, CancellationToken cancellationToken) =>
        options.BindingWorkers switch
        {
            1 => ReadInline(utf8Json, typeInfo, options, cancellationToken),
            2 when options.Format == JsonStreamFormat.Array => JsonAheadEngine<T>.ReadAsync(utf8Json, typeInfo, options, cancellationToken),
            _ => JsonBatchEngine<T>.ReadAsync(utf8Json, typeInfo, options, cancellationToken),
        };

    private static async IAsyncEnumerable<Result<T>> ReadInline<T>(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var scanner = JsonItemScanner.Create(utf8Json, options, typeInfo.Options);
        await using var scannerLifetime = scanner.ConfigureAwait(false);
        var reader = new JsonInlineEngine<T>(scanner, typeInfo);
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            switch (reader.TryRead(out var item))
            {
                case ScanStep.Item:
                    yield return item;
                    break;
                case ScanStep.NeedMoreData:
                    await scanner.FillAsync(cancellationToken).ConfigureAwait(false);
                    break;
                default:
                    yield break;
            }
        }
    }

    private static async ValueTask<Result<List<T>>> ReadListCore<T>(Stream utf8Json, JsonTypeInfo<T> typeInfo, JsonStreamOptions options, CancellationToken cancellationToken)
    {
        if (options.BindingWorkers > 1)
        {
            var bound = new List<T>();
            await foreach (var item in ReadThroughEngine(utf8Json, typeInfo, options, cancellationToken).ConfigureAwait(false))
            {
                if (!item.TryGetValue(out var value))
                {
                    return Result<List<T>>.Failure(item.Error);
                }

                bound.Add(value);
            }

            return bound;
        }

        var documentSize = WholeDocumentSize(utf8Json, options, typeInfo.Options);
        var scanner = JsonItemScanner.Create(utf8Json, options, typeInfo.Options, documentSize + 1);
        await using var scannerLifetime = scanner.ConfigureAwait(false);

        // Only a top-level array has a size, so only an array scanner is asked for the whole document.
        if (documentSize is not null && scanner is JsonArrayScanner array)
        {
            cancellationToken.ThrowIfCancellationRequested();
            await scanner.FillAsync(cancellationToken).ConfigureAwait(false);
            if (TryReadWholeDocument(array, typeInfo, out var whole))
            {
                return whole;
            }
        }

        var reader = new JsonInlineEngine<T>(scanner, typeInfo);
        var items = new List<T>();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            switch (reader.TryRead(out var item))
            {
                case ScanStep.Item when item.TryGetValue(out var value):
                    items.Add(value);
                    break;
                case ScanStep.Item:
                    return Result<List<T>>.Failure(item.Error);
                case ScanStep.NeedMoreData:
                    await scanner.FillAsync(cancellationToken).ConfigureAwait(false);
                    break;
                default:
                    return items;
            }
        }
    }

    /// <summary>
    /// The size of a small top-level array that a seekable stream holds, which is read in one block and bound in one call
    /// of the list converter (faster than binding item by item, as it skips the serializer's per-item setup);
    /// <see langword="null"/> for anything else. The cap bounds both the buffer (never above
    /// <see cref="JsonStreamOptions.MaxItemSize"/>, the most the item path buffers) and the time between cancellation
    /// checks, which is one block's binding. The serializer reads the document with its own depth limit, so this is
    /// only done when that limit is at least as strict as the items' one.
    /// </summary>
    private static int? WholeDocumentSize(Stream stream, JsonStreamOptions options, JsonSerializerOptions serializerOptions)
    {
        var serializerDepth = serializerOptions.MaxDepth == 0 ? DefaultSerializerMaxDepth : serializerOptions.MaxDepth;
        if (options.Format != JsonStreamFormat.Array || options.PathSegments.Length != 0 || !stream.CanSeek
            || serializerDepth > options.MaxDepth + 1)
        {
            return null;
        }

        var remaining = stream.Length - stream.Position;
        return remaining < Math.Min(WholeDocumentLimit, options.MaxItemSize) ? (int)remaining : null;
    }

    /// <summary>
    /// Binds a fully buffered array with the list converter. Anything the item path would report (a binding or syntax
    /// error, a null item, trailing content, too deep an item) makes this return <see langword="false"/>, and the item
    /// path then reads the same buffered bytes and reports it exactly, so both paths agree on every input.
    /// </summary>
    [SuppressMessage("Design", "CA1031:Do not catch general exception types", Justification = "Whatever fails here is read again by the item path, which reports or rethrows it.")]
    private static bool TryReadWholeDocument<T>(JsonArrayScanner scanner, JsonTypeInfo<T> typeInfo, [NotNullWhen(true)] out List<T>? items)
    {
        items = null;
        if (!scanner.TryGetWholeDocument(out var document) || JsonText.IndexOfInvalidUtf8(document) >= 0)
        {
            // Text that is not UTF-8 is read item by item, which names the item it is in.
            return false;
        }

        try
        {
            // From the span rather than through a reader: given a reader, the serializer first skips the whole value to
            // find its end, which costs more than the list converter saves.
            var list = JsonSerializer.Deserialize(document, ListTypeInfo<T>.For(typeInfo));
            if (list is null || (!typeof(T).IsValueType && list.Exists(static item => item is null)))
            {
                return false;
            }

            items = list;
            return true;
        }
        catch (Exception)
        {
            return false;
        }
    }

    /// <summary>Type information for <c>List&lt;T&gt;</c> built from the item's, through the same factory source generation uses.</summary>
    private static class ListTypeInfo<T>
    {
        private static readonly ConditionalWeakTable<JsonTypeInfo<T>, JsonTypeInfo<List<T>>> Lists = [];

        public static JsonTypeInfo<List<T>> For(JsonTypeInfo<T> item) => Lists.GetValue(item, static item => JsonMetadataServices.CreateListInfo<List<T>, T>(
            item.Options,
            new JsonCollectionInfoValues<List<T>> { ObjectCreator = static () => [], ElementInfo = item }));
    }
}

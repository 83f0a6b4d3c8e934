using System.Text;

namespace Millrace.Json.Streaming;

/// <summary>
/// Options for <see cref="JsonItems"/>. Every setting is validated when set; an instance freezes on first use
/// (or by <see cref="MakeReadOnly"/>), so a shared options object cannot change under a running reader.
/// </summary>
public sealed class JsonStreamOptions
{
    private JsonStreamFormat _format;
    private string _path = "$";
    private byte[][] _pathSegments = [];
    private int _maxItemSize = JsonStreamConstants.MaxItemSize;
    private int _maxDepth = JsonStreamConstants.MaxDepth;
    private int _bufferSize = JsonStreamConstants.BufferSize;
    private bool _skipInvalidLines;
    private int _bindingWorkers = JsonStreamConstants.BindingWorkers;

    /// <summary>Gets a frozen instance with every default.</summary>
    public static JsonStreamOptions Default { get; } = CreateDefault();

    /// <summary>Gets or sets how the items are laid out.</summary>
    /// <value>Default: <see cref="JsonStreamFormat.Array"/>.</value>
    public JsonStreamFormat Format
    {
        get => _format;
        set
        {
            ThrowIfReadOnly();
            if (!Enum.IsDefined(value))
            {
                throw new ArgumentOutOfRangeException(nameof(value), value, "Unknown JsonStreamFormat.");
            }

            _format = value;
        }
    }

    /// <summary>
    /// Gets or sets which array holds the items, as a simple path of property names: <c>$</c> for the root,
    /// <c>$.data.items</c> for <c>{"data":{"items":[...]}}</c>. Only used with <see cref="JsonStreamFormat.Array"/>.
    /// Properties before the array are skipped without being bound; reading stops at the array's closing bracket,
    /// so whatever follows it (a paging cursor, say) is neither read nor validated.
    /// </summary>
    /// <value>Default: <c>$</c>.</value>
    /// <exception cref="ArgumentException">The path is not <c>$</c> followed by zero or more <c>.name</c> steps.</exception>
    public string Path
    {
        get => _path;
        set
        {
            ThrowIfReadOnly();
            _pathSegments = ParsePath(value);
            _path = value;
        }
    }

    /// <summary>
    /// Gets or sets the largest item, in bytes, that will be buffered. A larger item (or NDJSON line) fails with
    /// <see cref="JsonErrorCodes.ItemTooLarge"/> instead of growing the buffer without bound. An array item is counted
    /// from the comma before it (whitespace before the comma is not), a line with its whitespace, so that the outcome
    /// is the same whether the item arrived in one read or in many.
    /// </summary>
    /// <value>Default: 16 MiB (<see cref="JsonStreamConstants.MaxItemSize"/>).</value>
    public int MaxItemSize
    {
        get => _maxItemSize;
        set
        {
            ThrowIfReadOnly();
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, Array.MaxLength - 1);
            _maxItemSize = value;
        }
    }

    /// <summary>
    /// Gets or sets how deeply an item may nest, counted from the item itself (an item <c>{"a":[1]}</c> has depth 2).
    /// Deeper input fails with <see cref="JsonErrorCodes.TooDeep"/>. The <c>JsonSerializerOptions.MaxDepth</c> of the
    /// type information also applies while binding.
    /// </summary>
    /// <value>Default: 64 (<see cref="JsonStreamConstants.MaxDepth"/>).</value>
    public int MaxDepth
    {
        get => _maxDepth;
        set
        {
            ThrowIfReadOnly();
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, 1000);
            _maxDepth = value;
        }
    }

    /// <summary>
    /// Gets or sets the size of the first read buffer, in bytes; it grows only for an item that does not fit. A seekable
    /// stream that fills it twice also gets a second buffer of this size, read into ahead of the scanning.
    /// </summary>
    /// <value>Default: 16 KiB (<see cref="JsonStreamConstants.BufferSize"/>).</value>
    public int BufferSize
    {
        get => _bufferSize;
        set
        {
            ThrowIfReadOnly();
            ArgumentOutOfRangeException.ThrowIfLessThan(value, JsonStreamConstants.MinBufferSize);
            _bufferSize = value;
        }
    }

    /// <summary>
    /// Gets or sets whether a malformed NDJSON line is reported and skipped, reading on from the next line.
    /// When <see langword="false"/>, the first malformed line is reported and ends the stream.
    /// Has no effect on <see cref="JsonStreamFormat.Array"/>, where a syntax error always ends the stream.
    /// </summary>
    /// <value>Default: <see langword="false"/>.</value>
    public bool SkipInvalidLines
    {
        get => _skipInvalidLines;
        set
        {
            ThrowIfReadOnly();
            _skipInvalidLines = value;
        }
    }

    /// <summary>
    /// Gets or sets how many workers bind items. With 1, each item is found and bound on the consuming thread, in one pass
    /// where it can be. With 2 over an array of objects, the consuming thread still does, while a worker (on the thread
    /// pool) binds the items ahead of it in the buffered bytes. Otherwise a reader finds the items for the others to bind,
    /// and binds some itself; the results still come in order, item by item, with the same values and errors, and stopping after k items
    /// still binds only k items and a bounded few ahead. Worth it when binding, not reading, is the bottleneck: large
    /// inputs of non-trivial records on a machine with idle cores. Applies to <see cref="JsonItems"/>' bound reads;
    /// <see cref="JsonItems.ReadRawAsync"/> binds nothing.
    /// </summary>
    /// <value>Default: 1 (<see cref="JsonStreamConstants.BindingWorkers"/>); at most <see cref="JsonStreamConstants.MaxBindingWorkers"/>.</value>
    public int BindingWorkers
    {
        get => _bindingWorkers;
        set
        {
            ThrowIfReadOnly();
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, JsonStreamConstants.MaxBindingWorkers);
            _bindingWorkers = value;
        }
    }

    /// <summary>Gets a value indicating whether the options are frozen.</summary>
    public bool IsReadOnly { get; private set; }

    /// <summary>Gets the path's property names as UTF-8, for comparison without transcoding.</summary>
    internal byte[][] PathSegments => _pathSegments;

    /// <summary>Freezes the options; later changes throw <see cref="InvalidOperationException"/>.</summary>
    public void MakeReadOnly() => IsReadOnly = true;

    private static JsonStreamOptions CreateDefault()
    {
        var options = new JsonStreamOptions();
        options.MakeReadOnly();
        return options;
    }

    private static byte[][] ParsePath(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (!path.StartsWith('$'))
        {
            throw new ArgumentException($"The path '{path}' must start with '$'.", nameof(path));
        }

        if (path.Length == 1)
        {
            return [];
        }

        if (path[1] != '.')
        {
            throw new ArgumentException($"The path '{path}' must be '$' or '$.name', with '.name' steps.", nameof(path));
        }

        var names = path[2..].Split('.');
        var segments = new byte[names.Length][];
        for (var i = 0; i < names.Length; i++)
        {
            if (names[i].Length == 0 || names[i].AsSpan().IndexOfAny("[]*'\"") >= 0)
            {
                throw new ArgumentException($"The path '{path}' has an empty or unsupported step '{names[i]}'; only property names are supported.", nameof(path));
            }

            segments[i] = Encoding.UTF8.GetBytes(names[i]);
        }

        return segments;
    }

    private void ThrowIfReadOnly()
    {
        if (IsReadOnly)
        {
            throw new InvalidOperationException("These JsonStreamOptions are in use and can no longer be changed.");
        }
    }
}

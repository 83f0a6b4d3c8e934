namespace Millrace;

/// <summary>
/// The base of the format exceptions Millrace's binary readers throw (<c>NbtFormatException</c>,
/// <c>CompactFormatException</c>): a <see cref="MillraceException"/> whose <see cref="Error"/> holds the module's code,
/// why the input was rejected, the byte offset of the offending byte, and the member or tag path, which readers build
/// innermost first as the exception passes up through their containers. The code, reason and offset live in the
/// <see cref="MillraceException.Error"/> it was made with; the path and the offset's scope, which change as the
/// exception travels, are added to it when <see cref="Error"/> is read.
/// </summary>
public abstract class LocatedFormatException : MillraceException
{
    private readonly ErrorPath _path = new();

    /// <summary>Initializes a new instance.</summary>
    /// <param name="code">The module's error code, e.g. <c>nbt.truncated</c>.</param>
    /// <param name="reason">Why the input is rejected.</param>
    /// <param name="byteOffset">The offset of the offending byte.</param>
    protected LocatedFormatException(string code, string reason, long byteOffset)
        : base(new Error(code, reason) { ByteOffset = byteOffset })
    {
    }

    /// <summary>Initializes a new instance with a message and an inner exception.</summary>
    /// <param name="code">The module's error code.</param>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The inner exception.</param>
    protected LocatedFormatException(string code, string message, Exception? innerException)
        : base(new Error(code, message) { Exception = innerException })
    {
    }

    /// <summary>Gets the module's error code, e.g. <c>nbt.truncated</c> or <c>compact.type-changed</c>.</summary>
    public string Code => base.Error.Code;

    /// <summary>Gets why the input is rejected, without the location.</summary>
    public string Reason => base.Error.Message;

    /// <summary>Gets the offset of the offending byte (0 for an exception made without one).</summary>
    public long ByteOffset => base.Error.ByteOffset ?? 0;

    /// <summary>Gets the member or tag path, outermost first: names joined by dots, indices in brackets.</summary>
    public string Path => _path.ToString();

    /// <summary>
    /// Gets what <see cref="ByteOffset"/> counts when it is not the input's own bytes (e.g. "of the gzip-decompressed data"),
    /// or <see langword="null"/> when it counts the input's bytes.
    /// </summary>
    public string? OffsetScope { get; private set; }

    /// <summary>Gets the error as a <see cref="Result{T}"/> would report it, with the path as it stands now.</summary>
    public override Error Error => base.Error with
    {
        ByteOffset = ByteOffset,
        OffsetScope = OffsetScope,
        Path = _path.IsEmpty ? null : _path.ToString(),
    };

    /// <inheritdoc />
    public override string Message => ErrorPath.Describe(Reason, ByteOffset, _path, OffsetScope);

    /// <summary>Says what <see cref="ByteOffset"/> counts, for a reader that ran over bytes derived from the input.</summary>
    /// <param name="scope">A phrase that follows "byte offset N", e.g. "of the gzip-decompressed data".</param>
    public void SetOffsetScope(string scope) => OffsetScope = scope;

    /// <summary>Adds the name of an enclosing container's member as the exception passes up through a reader.</summary>
    /// <param name="segment">The name.</param>
    public void PrependPath(string segment) => _path.Prepend(segment);

    /// <summary>Adds the index of an enclosing list's element as the exception passes up through a reader.</summary>
    /// <param name="index">The index.</param>
    public void PrependPath(int index) => _path.Prepend(index);

    /// <summary>
    /// Adds a segment to the front of <see cref="Path"/> and returns <see langword="false"/>, for an exception filter:
    /// <c>catch (E e) when (e.PrependPathAndPropagate(name))</c>. A filter runs before the stack unwinds and catches
    /// nothing, so a deeply nested reader adds its path without the stack a catch-and-rethrow at every level costs.
    /// </summary>
    /// <param name="segment">A member name.</param>
    /// <returns><see langword="false"/>, always.</returns>
    public bool PrependPathAndPropagate(string segment)
    {
        _path.Prepend(segment);
        return false;
    }

    /// <summary>Adds an index to the front of <see cref="Path"/> and returns <see langword="false"/>, for an exception filter.</summary>
    /// <param name="index">A list element's index.</param>
    /// <returns><see langword="false"/>, always.</returns>
    public bool PrependPathAndPropagate(int index)
    {
        _path.Prepend(index);
        return false;
    }
}

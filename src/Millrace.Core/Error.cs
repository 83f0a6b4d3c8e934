using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Text;

namespace Millrace;

/// <summary>
/// Describes why an operation failed and where: which item of a sequence, which byte of the input,
/// and which member or tag path. Every Millrace module reports failures with this one type.
/// </summary>
/// <param name="Code">A stable, machine-readable code such as <c>json.bind</c>; modules publish theirs as constants.</param>
/// <param name="Message">A human-readable explanation.</param>
[SuppressMessage("Naming", "CA1716:Identifiers should not match keywords", Justification = "Error is the name C# users expect beside Result<T>; VB callers can qualify it.")]
public sealed record Error(string Code, string Message)
{
    /// <summary>Gets the zero-based index of the item the error belongs to, when the input is a sequence.</summary>
    public long? ItemIndex { get; init; }

    /// <summary>Gets the zero-based byte offset in the input at which the problem was found.</summary>
    public long? ByteOffset { get; init; }

    /// <summary>
    /// Gets what <see cref="ByteOffset"/> counts when it is not the input's own bytes, as a phrase that follows "byte offset
    /// N" (e.g. "of the gzip-decompressed data"), or <see langword="null"/> when it counts the input's bytes.
    /// </summary>
    public string? OffsetScope { get; init; }

    /// <summary>Gets the member or tag path at which the problem was found, such as <c>$.items[3].name</c>.</summary>
    public string? Path { get; init; }

    /// <summary>Gets the exception the error was built from, when there was one.</summary>
    public Exception? Exception { get; init; }

    /// <summary>Gets the error that a default-initialized <see cref="Result{T}"/> reports.</summary>
    public static Error Uninitialized { get; } = new("result.uninitialized", "The result was never assigned a value or an error.");

    /// <summary>Creates an exception that carries this error.</summary>
    /// <returns>A <see cref="MillraceException"/> whose <see cref="MillraceException.Error"/> is this instance.</returns>
    public MillraceException ToException() => new(this);

    /// <summary>Formats the error as <c>code: message (item 3, byte offset 120, path $.a)</c>.</summary>
    /// <returns>The formatted error.</returns>
    public override string ToString()
    {
        var text = new StringBuilder(Code.Length + Message.Length + 48);
        text.Append(Code).Append(": ").Append(Message);
        var hasLocation = false;
        void Separator()
        {
            text.Append(hasLocation ? ", " : " (");
            hasLocation = true;
        }

        if (ItemIndex is { } item)
        {
            Separator();
            text.Append("item ").Append(item.ToString(CultureInfo.InvariantCulture));
        }

        if (ByteOffset is { } offset)
        {
            Separator();
            text.Append("byte offset ").Append(offset.ToString(CultureInfo.InvariantCulture));
            if (!string.IsNullOrEmpty(OffsetScope))
            {
                text.Append(' ').Append(OffsetScope);
            }
        }

        if (!string.IsNullOrEmpty(Path))
        {
            Separator();
            text.Append("path ").Append(Path);
        }

        if (hasLocation)
        {
            text.Append(')');
        }

        return text.ToString();
    }
}

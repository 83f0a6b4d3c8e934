namespace Millrace;

/// <summary>
/// Why a <see cref="SpanCursor"/> refused a length or count. The cursor reports, the format module throws: each
/// module turns a status into its own error code, message and offset.
/// </summary>
public enum SpanCursorStatus : byte
{
    /// <summary>The length or count fits.</summary>
    Done = 0,

    /// <summary>A signed length or count is below zero.</summary>
    Negative = 1,

    /// <summary>The count is more than the caller's limit.</summary>
    OverLimit = 2,

    /// <summary>The count, at the minimum element size, needs more bytes than remain.</summary>
    BeyondInput = 3,
}

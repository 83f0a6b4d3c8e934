namespace Millrace.Parallel.Execution;

/// <summary>How an item ended.</summary>
internal enum OutcomeKind
{
    /// <summary>It produced a value (possibly a fallback).</summary>
    Success,

    /// <summary>It failed after its retries.</summary>
    Failure,

    /// <summary>The run stopped before it could finish.</summary>
    Cancelled,
}

/// <summary>The end of one item, before the error mode decides what the caller sees.</summary>
internal readonly record struct ItemOutcome<T>(OutcomeKind Kind, long Index, T Value, Exception? Exception)
{
    public static ItemOutcome<T> Cancelled(long index) => new(OutcomeKind.Cancelled, index, default!, null);

    public static ItemOutcome<T> Success(long index, T value) => new(OutcomeKind.Success, index, value, null);

    public static ItemOutcome<T> Failure(long index, Exception exception) => new(OutcomeKind.Failure, index, default!, exception);

    public ItemResult<T> ToItemResult() =>
        Kind == OutcomeKind.Success ? new ItemResult<T>(Index, Value) : ItemResult<T>.Failed(Index, Exception!);
}

namespace Millrace.Parallel;

/// <summary>The outcome of one source item: its zero-based index in the source and its result or error.</summary>
/// <typeparam name="T">The type of a successful value.</typeparam>
/// <param name="Index">The item's zero-based position in the source.</param>
/// <param name="Result">The value, or an error with code <see cref="ParallelErrorCodes.ItemFailed"/> whose
/// <see cref="Error.Exception"/> is the item's final exception and whose <see cref="Error.ItemIndex"/> is <paramref name="Index"/>.</param>
public readonly record struct ItemResult<T>(long Index, Result<T> Result)
{
    /// <summary>Gets a value indicating whether the item succeeded.</summary>
    public bool IsSuccess => Result.IsSuccess;

    internal static ItemResult<T> Failed(long index, Exception exception) =>
        new(index, Result<T>.Failure(new Error(ParallelErrorCodes.ItemFailed, exception.Message) { ItemIndex = index, Exception = exception }));
}

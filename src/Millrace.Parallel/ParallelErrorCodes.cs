namespace Millrace.Parallel;

/// <summary>The <see cref="Error.Code"/> values Millrace.Parallel reports.</summary>
public static class ParallelErrorCodes
{
    /// <summary>An item failed after its retries; <see cref="Error.Exception"/> holds the final exception.</summary>
    public const string ItemFailed = "parallel.item_failed";
}

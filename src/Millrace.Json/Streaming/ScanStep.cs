namespace Millrace.Json.Streaming;

/// <summary>What <see cref="JsonItemScanner.Next"/> found.</summary>
internal enum ScanStep
{
    /// <summary>A complete item is in <see cref="JsonItemScanner.Item"/>.</summary>
    Item,

    /// <summary>The buffered bytes end inside the next step; call <see cref="JsonItemScanner.FillAsync"/>.</summary>
    NeedMoreData,

    /// <summary><see cref="JsonItemScanner.Error"/> describes a problem; the next call says whether reading goes on.</summary>
    Failure,

    /// <summary>There are no more items.</summary>
    End,
}

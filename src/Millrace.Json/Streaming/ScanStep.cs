namespace Millrace.Json.Streaming;

/// <summary>What <see cref="JsonItemScanner.Next"/> found.</summary>
internal enum ScanStep
{
    /// <summary>A complete item is in <see cref="JsonItemScanner.Item"/>.</summary>
    Item,

    /// <summary>
    /// A container item starts at <see cref="JsonItemScanner.Candidate"/> with room to spare in the buffer: bind it in
    /// one pass, then call <see cref="JsonItemScanner.TryAcceptCandidate"/> or <see cref="JsonItemScanner.RejectCandidate"/>.
    /// Only <see cref="JsonArrayScanner"/> offers candidates: an NDJSON line is checked whole before it is handed over.
    /// </summary>
    ItemCandidate,

    /// <summary>The buffered bytes end inside the next step; call <see cref="JsonItemScanner.FillAsync"/>.</summary>
    NeedMoreData,

    /// <summary><see cref="JsonItemScanner.Error"/> describes a problem; the next call says whether reading goes on.</summary>
    Failure,

    /// <summary>There are no more items.</summary>
    End,
}

using System.Text.Json;

namespace Millrace.Json.Streaming;

/// <summary>
/// Binding ahead, for <see cref="JsonAheadEngine{T}"/>: a worker binds the items of the buffered bytes' second half
/// while the reader binds the first, from a guessed item start that only the scanner's own reading can confirm.
/// </summary>
internal sealed partial class JsonArrayScanner
{
    /// <summary>Gets the buffered bytes: what <see cref="TryGuessItemAhead"/>'s positions index.</summary>
    public ReadOnlyMemory<byte> Buffered => Buffer.AsMemory(0, End);

    /// <summary>Gets a value indicating whether an object item has been read, which a guess needs: the reader state after one.</summary>
    public bool HasObjectItems => _stateAfterItem[(int)JsonTokenType.StartObject] is not null;

    /// <summary>
    /// Guesses where an object item starts near the middle of the bytes not yet scanned: a <c>{</c> after a comma after
    /// a <c>}</c>, whitespace aside. Only a guess (those bytes could be inside a string), so the items bound from it
    /// count only once <see cref="NextItemPosition"/> lands on it. Only between two object items of the selected array,
    /// once the state after such an item is known, with at least <paramref name="windowBytes"/> not yet scanned.
    /// </summary>
    /// <param name="windowBytes">The most bytes the scanner binds before the guess.</param>
    /// <param name="reachBytes">The most bytes a worker binds from the guess.</param>
    /// <param name="guess">The buffer position of the guessed item's <c>{</c>.</param>
    /// <param name="comma">The buffer position of the comma before it.</param>
    /// <param name="stop">Where the items bound from the guess must start before: <paramref name="reachBytes"/> on, and
    /// where an item still surely ends inside the buffer, as for a one-pass candidate.</param>
    /// <returns><see langword="true"/> when there is a guess.</returns>
    public bool TryGuessItemAhead(int windowBytes, int reachBytes, out int guess, out int comma, out int stop)
    {
        guess = 0;
        comma = 0;
        stop = 0;
        if (!BetweenObjectItems || End - Start < windowBytes)
        {
            return false;
        }

        var buffer = Buffer;
        var end = End;
        for (var position = Start + (Math.Min(end - Start, 2 * windowBytes) / 2); position < end; position++)
        {
            var brace = buffer.AsSpan(position, end - position).IndexOf((byte)'{');
            if (brace < 0)
            {
                return false;
            }

            position += brace;
            var before = SkipJsonWhitespaceBack(position - 1);
            if (before > Start && buffer[before] == (byte)',' && SkipJsonWhitespaceBack(before - 1) is var close && close >= Start && buffer[close] == (byte)'}')
            {
                guess = position;
                comma = before;
                stop = Math.Min(position + reachBytes, SurelyCompleteBefore);
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Gets whether only too few bytes for <see cref="TryGuessItemAhead"/> stand in its way, fewer than
    /// <paramref name="windowBytes"/> unscanned, while the next bytes are read ahead already: filling now costs a copy of
    /// the remainder only, and lets a guess give the worker items where the reader would read the buffer's last bytes
    /// alone.
    /// </summary>
    /// <param name="windowBytes">What <see cref="TryGuessItemAhead"/> is given.</param>
    /// <returns><see langword="true"/> when <see cref="JsonItemScanner.FillAsync"/> should be called now.</returns>
    public bool ShouldFillForGuess(int windowBytes) =>
        BetweenObjectItems && !EndOfStream && End - Start < windowBytes && CanFillAtOnce;

    /// <summary>Gets where the next item starts, as far as the bytes after the last one show: past whitespace, a comma and whitespace.</summary>
    /// <returns>The buffer position.</returns>
    public int NextItemPosition()
    {
        var position = SkipJsonWhitespace(Start);
        return position < End && Buffer[position] == (byte)',' ? SkipJsonWhitespace(position + 1) : position;
    }

    /// <summary>
    /// Passes over <paramref name="count"/> object items that a worker bound, from where <see cref="NextItemPosition"/>
    /// stands to <paramref name="end"/>, as <see cref="TryAcceptCandidate"/> passes over one.
    /// </summary>
    /// <param name="count">How many items.</param>
    /// <param name="end">The buffer position after the last one.</param>
    /// <param name="largestItem">The longest of them.</param>
    public void AcceptItemsAhead(int count, int end, int largestItem)
    {
        _state = _stateAfterItem[(int)JsonTokenType.StartObject]!.Value;
        Start = end;
        _largestItem = Math.Max(_largestItem, largestItem);
        TakeIndices(count);
    }

    // Between two object items of the selected array, with one-pass binding offered and nothing ended the scanning: where
    // a guess can be made, once an object item has supplied the reader state after one.
    private bool BetweenObjectItems =>
        _offerCandidates && _phase == Phase.Items && NextIndex != 0 && !_scanNextCandidate && HasObjectItems && !IsDone;

    private int SkipJsonWhitespaceBack(int position)
    {
        var buffer = Buffer;
        while (position >= 0 && buffer[position] is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')
        {
            position--;
        }

        return position;
    }
}

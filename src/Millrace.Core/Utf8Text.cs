using System.Buffers;
using System.Text.Unicode;

namespace Millrace;

/// <summary>Where text that must be UTF-8 stops being so: readers refuse such bytes at their offset rather than replace them.</summary>
public static class Utf8Text
{
    /// <summary>Finds where bytes stop being UTF-8: the start of the first sequence that is malformed, overlong, a surrogate, or cut short.</summary>
    /// <param name="utf8">The bytes.</param>
    /// <returns>Its offset, or -1 when every byte is valid UTF-8.</returns>
    public static int IndexOfInvalid(ReadOnlySpan<byte> utf8)
    {
        if (Utf8.IsValid(utf8))
        {
            return -1;
        }

        return IndexOfInvalid(utf8, isFinalBlock: true, out _);
    }

    /// <summary>
    /// Finds where a block of a longer text stops being UTF-8, as <see cref="IndexOfInvalid(ReadOnlySpan{byte})"/> does, except
    /// that a sequence cut short by the end of a block that is not the last is left for the next block to finish.
    /// </summary>
    /// <param name="utf8">The block.</param>
    /// <param name="isFinalBlock">Whether the text ends with this block.</param>
    /// <param name="pending">How many bytes at the block's end begin a sequence the next block must finish (0 to 3).</param>
    /// <returns>The offset of the first invalid sequence in the block, or -1.</returns>
    public static int IndexOfInvalid(ReadOnlySpan<byte> utf8, bool isFinalBlock, out int pending)
    {
        pending = 0;
        if (Utf8.IsValid(utf8))
        {
            return -1;
        }

        // Only text with a fault, or a cut sequence, gets here: transcode a chunk at a time, which stops at either.
        Span<char> scratch = stackalloc char[512];
        var offset = 0;
        while (true)
        {
            var status = Utf8.ToUtf16(utf8[offset..], scratch, out var read, out _, replaceInvalidSequences: false, isFinalBlock);
            offset += read;
            switch (status)
            {
                case OperationStatus.DestinationTooSmall:
                    continue;
                case OperationStatus.NeedMoreData:
                    pending = utf8.Length - offset;
                    return -1;
                case OperationStatus.InvalidData:
                    return offset;
                default:
                    return -1;
            }
        }
    }
}

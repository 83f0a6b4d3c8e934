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

        // Only invalid input gets here: transcode a chunk at a time, which stops at the first invalid sequence.
        Span<char> scratch = stackalloc char[512];
        var offset = 0;
        while (true)
        {
            var status = Utf8.ToUtf16(utf8[offset..], scratch, out var read, out _, replaceInvalidSequences: false);
            offset += read;
            if (status != OperationStatus.DestinationTooSmall)
            {
                return offset;
            }
        }
    }
}

using System.Diagnostics.CodeAnalysis;

namespace Millrace;

/// <summary>Cold throw paths, kept out of line so the hot paths that call them stay small and inlinable.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    public static T ThrowNoValue<T>(Error error) => throw error.ToException();

    [DoesNotReturn]
    public static Error ThrowNoError() =>
        throw new InvalidOperationException("The result is a success and has no error.");

    [DoesNotReturn]
    public static void ThrowDestinationTooSmall(string paramName) =>
        throw new ArgumentException("The destination is too small for the encoded value.", paramName);

    [DoesNotReturn]
    public static void ThrowAdvancedTooFar(int count, int free) =>
        throw new InvalidOperationException($"Cannot advance {count} bytes: only {free} bytes were made available.");

    [DoesNotReturn]
    public static void ThrowAdvancePastEnd(int count, int remaining) =>
        throw new ArgumentOutOfRangeException(nameof(count), count, $"Cannot move past {count} bytes: {remaining} remain.");

    [DoesNotReturn]
    public static void ThrowCapacityExceeded(long requested) =>
        throw new InvalidOperationException($"A pooled buffer of {requested} bytes would exceed the largest array .NET can allocate.");

    [DoesNotReturn]
    public static void ThrowPositionOutOfRange(int position, int length) =>
        throw new ArgumentOutOfRangeException(nameof(position), position, $"The position must lie within the {length} bytes of the span.");

    [DoesNotReturn]
    public static void ThrowNegativeCountArgument(int maxCount, int minimumElementSize) =>
        throw (maxCount < 0
            ? new ArgumentOutOfRangeException(nameof(maxCount), maxCount, "The limit must not be negative.")
            : new ArgumentOutOfRangeException(nameof(minimumElementSize), minimumElementSize, "The minimum element size must not be negative."));

    [DoesNotReturn]
    public static void ThrowNegativeSizeHint(int sizeHint) =>
        throw new ArgumentOutOfRangeException(nameof(sizeHint), sizeHint, "The size hint must not be negative.");

    [DoesNotReturn]
    public static void ThrowBufferWriterTooSmall(int sizeHint, int length) =>
        throw new InvalidOperationException($"The buffer writer gave a span of {length} bytes when {sizeHint} were asked for.");

    [DoesNotReturn]
    public static void ThrowLengthPrefixOpen() =>
        throw new InvalidOperationException("A length prefix is still open: end it before flushing.");
}

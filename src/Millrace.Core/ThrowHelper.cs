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
    public static void ThrowCapacityExceeded(long requested) =>
        throw new InvalidOperationException($"A pooled buffer of {requested} bytes would exceed the largest array .NET can allocate.");
}

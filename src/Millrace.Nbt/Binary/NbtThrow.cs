using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using Millrace.Compression;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>Cold throw paths of the NBT readers and writers, so the hot paths stay small.</summary>
internal static class NbtThrow
{
    /// <summary>
    /// A string the writer cannot carry. Kept out of line: the writer's string path is inlined into the recursive tag
    /// writer, and a message built there would put its formatting state on that method's stack frame, paid at every
    /// level of every tree written.
    /// </summary>
    [DoesNotReturn]
    public static void StringTooLong(int length, string encoding, int limit, string paramName) =>
        throw new ArgumentException(string.Create(CultureInfo.InvariantCulture, $"A string of {length} {encoding} bytes exceeds the format's limit of {limit}."), paramName);

    /// <summary>
    /// Gets <paramref name="format"/> when it is one of <see cref="NbtFormat"/>'s values, for the writer: an undefined
    /// flavour would be written as big-endian numbers with UTF-8 strings, which no flavour is.
    /// </summary>
    public static NbtFormat DefinedFormat(NbtFormat format, string paramName) =>
        IsDefined(format) ? format : throw new ArgumentOutOfRangeException(paramName, format, "Not an NBT flavour.");

    /// <summary>
    /// Whether <paramref name="format"/> is one of the flavours (0 to <see cref="NbtFormat.BedrockNetwork"/>, in order): a
    /// range check, not <see cref="Enum.IsDefined{TEnum}(TEnum)"/>, which may allocate where a write must not.
    /// </summary>
    public static bool IsDefined(NbtFormat format) => (uint)format <= (uint)NbtFormat.BedrockNetwork;

    [DoesNotReturn]
    public static void Truncated(int needed, long offset) =>
        throw TruncatedError(needed, offset);

    [DoesNotReturn]
    public static void InvalidTagType(byte id, long offset) =>
        throw new NbtFormatException(NbtErrorCodes.UnknownTag, string.Create(CultureInfo.InvariantCulture, $"Unknown tag type {id}."), offset);

    /// <summary>A length that <see cref="SpanCursor.CheckCount(long, int, int)"/> refused: negative, or more than the input holds.</summary>
    [DoesNotReturn]
    public static void BadLength(SpanCursorStatus status, long length, long remaining, long offset) =>
        throw new NbtFormatException(
            NbtErrorCodes.BadLength,
            status == SpanCursorStatus.Negative
                ? string.Create(CultureInfo.InvariantCulture, $"Negative length {length}.")
                : string.Create(CultureInfo.InvariantCulture, $"Declared length {length} needs more bytes than the {remaining} that remain."),
            offset);

    [DoesNotReturn]
    public static void BadString(string encoding, long offset) =>
        throw new NbtFormatException(NbtErrorCodes.BadEncoding, $"Malformed {encoding} in a string.", offset);

    /// <summary>A varint the cursor could not read: cut off by the end of the input (reported there), or malformed (reported where it starts).</summary>
    [DoesNotReturn]
    public static void BadVarint(OperationStatus status, long offset, long inputEnd) =>
        throw (status == OperationStatus.NeedMoreData
            ? TruncatedError(1, inputEnd)
            : new NbtFormatException(NbtErrorCodes.BadEncoding, "Malformed or overlong varint.", offset));

    [DoesNotReturn]
    public static void TooDeep(int maxDepth, long offset) =>
        throw new NbtFormatException(NbtErrorCodes.Depth, string.Create(CultureInfo.InvariantCulture, $"Nesting deeper than the limit of {maxDepth}."), offset);

    [DoesNotReturn]
    public static void TooDeepForStack(int depth, long offset) =>
        throw new NbtFormatException(NbtErrorCodes.Depth, string.Create(CultureInfo.InvariantCulture, $"Nesting {depth} levels deep is more than this thread's stack can read; lower MaxDepth or read on a thread with a larger stack."), offset);

    [DoesNotReturn]
    public static void AmbiguousFlavour(NbtFormat first, NbtFormat second) =>
        throw new NbtFormatException(NbtErrorCodes.Ambiguous, $"The input reads whole as both {first} and {second} NBT, with different trees; name its flavour.", 0);

    [DoesNotReturn]
    public static void QuotaExceeded(long maxBytes, long offset) =>
        throw new NbtFormatException(NbtErrorCodes.Quota, string.Create(CultureInfo.InvariantCulture, $"The tree would account for more than the quota of {maxBytes} bytes."), offset);

    [DoesNotReturn]
    public static void EndListWithElements(int count, long offset) =>
        throw new NbtFormatException(NbtErrorCodes.Structure, string.Create(CultureInfo.InvariantCulture, $"A list of End tags cannot hold {count} elements."), offset);

    [DoesNotReturn]
    public static void RootIsEnd(long offset) =>
        throw new NbtFormatException(NbtErrorCodes.Structure, "The root tag is an End tag.", offset);

    [DoesNotReturn]
    public static void TrailingBytes(long count, long offset) =>
        throw new NbtFormatException(NbtErrorCodes.TrailingBytes, string.Create(CultureInfo.InvariantCulture, $"{count} byte(s) follow the root tag."), offset);

    [DoesNotReturn]
    public static void Decompression(DecompressionOutcome outcome) =>
        throw new NbtFormatException(NbtErrorCodes.Compression, outcome.Message, outcome.Offset);

    /// <summary>A pull reader's <c>Get…</c> called on the wrong token: the caller's mistake, not the input's.</summary>
    [DoesNotReturn]
    public static void NotOnValue(NbtToken token, NbtTagType type, NbtTagType expected) =>
        throw new InvalidOperationException($"The reader is on a {token} of type {type}, not a {expected} value.");

    /// <summary>A pull reader's <c>ReadMember</c> or <c>ReadElement</c> called outside a container of its kind: the caller's mistake.</summary>
    [DoesNotReturn]
    public static void NotInContainer(bool list, int depth) =>
        throw new InvalidOperationException(depth == 0
            ? $"The reader is not inside a {(list ? "list" : "compound")}: it is before the root, on a root that is not a container, or after it."
            : $"The reader is not inside a {(list ? "list" : "compound")}: the innermost container open is a {(list ? "compound" : "list")}.");

    // Every throw above is a single throw expression, so the JIT treats each as never returning and keeps it off its
    // callers' fast paths; exceptions two of them share are built here.
    private static NbtFormatException TruncatedError(int needed, long offset) =>
        new(NbtErrorCodes.Truncated, string.Create(CultureInfo.InvariantCulture, $"The input ends where {needed} more byte(s) were expected."), offset);
}

using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using Millrace.Compact.Wire;
using Millrace.Compression;

namespace Millrace.Compact;

/// <summary>The compact readers' cold throws, one per failure, kept out of the hot paths; each names its <see cref="CompactErrorCodes"/> code.</summary>
internal static class CompactThrow
{
    [DoesNotReturn]
    public static void InvalidFieldIndex(ulong index, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadKey, string.Create(CultureInfo.InvariantCulture, $"Invalid field index {index}."), offset);

    /// <summary>A key step (frame flag bit 3) of 0, or one past the largest index.</summary>
    [DoesNotReturn]
    public static void BadKeyStep(ulong step, int index, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadKey, string.Create(CultureInfo.InvariantCulture,
            $"Invalid field index step {step} after index {index}: steps are at least 1 and lead to at most {int.MaxValue}."), offset);

    [DoesNotReturn]
    public static void OverlongVarint(long offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadEncoding, "The varint is not in its shortest form: it ends with a byte of 00.", offset);

    [DoesNotReturn]
    public static void BadVarint(OperationStatus status, long offset) =>
        throw (status == OperationStatus.NeedMoreData
            ? new CompactFormatException(CompactErrorCodes.Truncated, "The payload ends inside a varint.", offset)
            : new CompactFormatException(CompactErrorCodes.BadEncoding, "Malformed or overlong varint.", offset));

    /// <summary>A length-delimited value's length that runs past the input.</summary>
    [DoesNotReturn]
    public static void LengthBeyondInput(ulong length, int remaining, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadLength, string.Create(CultureInfo.InvariantCulture, $"Declared length {length} needs more bytes than the {remaining} that remain."), offset);

    [DoesNotReturn]
    public static void StringTooLong(int length, int maxLength, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.Limit, string.Create(CultureInfo.InvariantCulture, $"A string of {length} bytes exceeds the limit of {maxLength}."), offset);

    [DoesNotReturn]
    public static void BadUtf8(long offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadEncoding, "Malformed UTF-8 in a string.", offset);

    /// <summary>A collection's element count that <see cref="SpanCursor.CheckCount(ulong, int, int)"/> refused.</summary>
    [DoesNotReturn]
    public static void BadCount(SpanCursorStatus status, ulong count, int maxCount, int remaining, long offset) =>
        throw status switch
        {
            SpanCursorStatus.OverLimit => new CompactFormatException(CompactErrorCodes.Limit, string.Create(CultureInfo.InvariantCulture, $"A collection of {count} elements exceeds the limit of {maxCount}."), offset),
            _ => new CompactFormatException(CompactErrorCodes.BadLength, string.Create(CultureInfo.InvariantCulture, $"A collection of {count} elements needs more bytes than the {remaining} that remain."), offset),
        };

    [DoesNotReturn]
    public static void Truncated(int needed, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.Truncated, string.Create(CultureInfo.InvariantCulture, $"The payload ends where {needed} more byte(s) were expected."), offset);

    [DoesNotReturn]
    public static void TypeChanged(int index, string expected, WireType actual, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.TypeChanged, string.Create(CultureInfo.InvariantCulture, $"Field index {index} is {expected} in the schema but {actual} on the wire: the field's type changed."), offset);

    [DoesNotReturn]
    public static bool NotABool(ulong value, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadValue, string.Create(CultureInfo.InvariantCulture, $"{value} is not a bool."), offset);

    [DoesNotReturn]
    public static void WrongSize(string what, int size, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadEncoding, string.Create(CultureInfo.InvariantCulture, $"A {what} must be {size} bytes."), offset);

    [DoesNotReturn]
    public static void BadValue(string reason, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadValue, reason, offset);

    [DoesNotReturn]
    public static void ByteStringTooLong(int maxLength, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.Limit, string.Create(CultureInfo.InvariantCulture, $"A byte string exceeds the limit of {maxLength} bytes."), offset);

    [DoesNotReturn]
    public static void TooDeep(int maxDepth, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.Depth, string.Create(CultureInfo.InvariantCulture, $"Nesting deeper than the limit of {maxDepth}."), offset);

    [DoesNotReturn]
    public static void TrailingBytes(string after, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.TrailingBytes, $"Bytes follow the last {after}.", offset);

    [DoesNotReturn]
    public static void Frame(string reason, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.Frame, reason, offset);

    [DoesNotReturn]
    public static void FrameTooShort(int length) =>
        throw new CompactFormatException(CompactErrorCodes.Truncated, "A frame needs at least 3 bytes: version, flags and type id.", length);

    [DoesNotReturn]
    public static void UnknownVersion(byte version, byte known) =>
        Frame(string.Create(CultureInfo.InvariantCulture, $"Unknown format version {version}; this reader knows version {known}."), 0);

    [DoesNotReturn]
    public static void UnknownFlags(byte flags) =>
        Frame(string.Create(CultureInfo.InvariantCulture, $"Unknown flags 0x{flags:X2}."), 1);

    [DoesNotReturn]
    public static void MisplacedKeySteps(byte flags, bool isCollection) =>
        Frame(string.Create(CultureInfo.InvariantCulture, $"Flags 0x{flags:X2} step the keys of {(isCollection ? "a collection" : "an uncompressed body")}; only a compressed single record's keys are stepped."), 1);

    [DoesNotReturn]
    public static void WrongRecordType(int typeId, string typeName, int expected) =>
        Frame(string.Create(CultureInfo.InvariantCulture, $"The frame holds type id {typeId}; {typeName} has id {expected}."), 2);

    [DoesNotReturn]
    public static void BodyOverLimit(int length, int maxLength, long offset) =>
        Limit(string.Create(CultureInfo.InvariantCulture, $"The body of {length} bytes exceeds the limit of {maxLength}."), offset);

    [DoesNotReturn]
    public static void Limit(string reason, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.Limit, reason, offset);

    /// <summary>A compressed body that cannot be inflated: <c>compact.limit</c> when it inflates past the body limit (the
    /// same code as an uncompressed body over it), <c>compact.compression</c> otherwise.</summary>
    [DoesNotReturn]
    public static void Decompression(DecompressionOutcome outcome, int headerLength) =>

        // A body over the limit is located where it starts, as an uncompressed one is: where inflating crosses the limit
        // depends on the implementation's buffers.
        throw (outcome.Status == DecompressionStatus.TooLarge
            ? new CompactFormatException(CompactErrorCodes.Limit, outcome.Message, headerLength)
            : new CompactFormatException(CompactErrorCodes.Compression, outcome.Message, headerLength + outcome.Offset));

    [DoesNotReturn]
    public static void RepeatedField(int index, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.Repeated, string.Create(CultureInfo.InvariantCulture, $"Field {index} appears twice in the record; a record holds each field once."), offset);

    [DoesNotReturn]
    public static void RepeatedKey(string key, long offset) =>
        throw new CompactFormatException(CompactErrorCodes.Repeated, $"The key '{key}' appears twice in the map.", offset);

    [DoesNotReturn]
    public static void Schema(string reason) =>
        throw new CompactFormatException(CompactErrorCodes.Schema, reason, 0);
}

using System.ComponentModel;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Millrace.Compact.Wire;

namespace Millrace.Compact.Serialization;

/// <summary>Encodings shared by generated serializers and the runtime JSON codec, with range checks that raise
/// <see cref="CompactFormatException"/>.</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public static class CompactValues
{
    /// <summary>Checks a field's wire type against the one its member expects.</summary>
    /// <param name="actual">The wire type read.</param>
    /// <param name="expected">The member's wire type.</param>
    /// <param name="index">The field index.</param>
    /// <param name="offset">The key's offset.</param>
    /// <exception cref="CompactFormatException">They differ: the field's type changed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ExpectWireType(WireType actual, WireType expected, int index, int offset)
    {
        // Called for every field read: the message is built out of line, so the check inlines into the generated reader.
        if (actual != expected)
        {
            ThrowTypeChanged(actual, expected, index, offset);
        }
    }

    /// <summary>Reads a bool.</summary>
    /// <param name="reader">The reader.</param>
    /// <returns>The value.</returns>
    public static bool ReadBool(ref CompactReader reader)
    {
        var offset = reader.Offset;
        return reader.ReadVarint() switch
        {
            0 => false,
            1 => true,
            var other => CompactThrow.NotABool(other, offset),
        };
    }

    /// <summary>Reads a zigzag varint within a range.</summary>
    /// <param name="reader">The reader.</param>
    /// <param name="min">The smallest value allowed.</param>
    /// <param name="max">The largest value allowed.</param>
    /// <returns>The value.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long ReadSigned(ref CompactReader reader, long min, long max)
    {
        var offset = reader.Offset;
        return InRange(reader.ReadSigned(), min, max, offset);
    }

    /// <summary>Reads a two's complement varint (<see cref="IntegerEncoding.TwosComplement"/>) within a range.</summary>
    /// <param name="reader">The reader.</param>
    /// <param name="min">The smallest value allowed.</param>
    /// <param name="max">The largest value allowed.</param>
    /// <returns>The value.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long ReadTwosComplement(ref CompactReader reader, long min, long max)
    {
        var offset = reader.Offset;
        return InRange((long)reader.ReadVarint(), min, max, offset);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long InRange(long value, long min, long max, int offset)
    {
        if (value < min || value > max)
        {
            ThrowOutOfRange(value, offset);
        }

        return value;
    }

    /// <summary>Reads an unsigned varint within a range.</summary>
    /// <param name="reader">The reader.</param>
    /// <param name="max">The largest value allowed.</param>
    /// <returns>The value.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong ReadUnsigned(ref CompactReader reader, ulong max)
    {
        var offset = reader.Offset;
        var value = reader.ReadVarint();
        if (value > max)
        {
            ThrowOutOfRange(value, offset);
        }

        return value;
    }

    /// <summary>Writes a decimal as 16 length-delimited bytes.</summary>
    /// <param name="writer">The writer.</param>
    /// <param name="value">The value.</param>
    public static void WriteDecimal(ref CompactWriter writer, decimal value)
    {
        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits);
        Span<byte> bytes = stackalloc byte[16];
        for (var i = 0; i < 4; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(bytes[(i * 4)..], bits[i]);
        }

        writer.WriteLengthDelimited(bytes);
    }

    /// <summary>Reads a decimal.</summary>
    /// <param name="reader">The reader.</param>
    /// <returns>The value.</returns>
    public static decimal ReadDecimal(ref CompactReader reader)
    {
        var bytes = reader.ReadLengthDelimited(out var start);
        if (bytes.Length != 16)
        {
            CompactThrow.WrongSize("decimal", 16, start);
        }

        Span<int> bits = stackalloc int[4];
        for (var i = 0; i < 4; i++)
        {
            bits[i] = BinaryPrimitives.ReadInt32LittleEndian(bytes[(i * 4)..]);
        }

        // decimal's flags word: the sign in bit 31, the scale (at most 28) in bits 16-23, every other bit zero.
        if ((bits[3] & 0x7F00FFFF) != 0 || ((bits[3] >> 16) & 0xFF) > 28)
        {
            CompactThrow.BadValue("The 16 bytes are not a valid decimal (its scale or sign bits are out of range).", start);
        }

        return new decimal(bits);
    }

    /// <summary>Writes a guid as 16 length-delimited bytes in RFC 4122 order.</summary>
    /// <param name="writer">The writer.</param>
    /// <param name="value">The value.</param>
    public static void WriteGuid(ref CompactWriter writer, Guid value)
    {
        Span<byte> bytes = stackalloc byte[16];
        value.TryWriteBytes(bytes, bigEndian: true, out _);
        writer.WriteLengthDelimited(bytes);
    }

    /// <summary>Reads a guid.</summary>
    /// <param name="reader">The reader.</param>
    /// <returns>The value.</returns>
    public static Guid ReadGuid(ref CompactReader reader)
    {
        var bytes = reader.ReadLengthDelimited(out var start);
        if (bytes.Length != 16)
        {
            CompactThrow.WrongSize("guid", 16, start);
        }

        return new Guid(bytes, bigEndian: true);
    }

    /// <summary>Reads a byte string within the length limit.</summary>
    /// <param name="reader">The reader.</param>
    /// <param name="limits">The limits.</param>
    /// <returns>A new array.</returns>
    public static byte[] ReadBytes(ref CompactReader reader, CompactLimits limits)
    {
        ArgumentNullException.ThrowIfNull(limits);
        var offset = reader.Offset;
        var bytes = reader.ReadLengthDelimited(out _);
        if (bytes.Length > limits.MaxStringLength)
        {
            CompactThrow.ByteStringTooLong(limits.MaxStringLength, offset);
        }

        return bytes.ToArray();
    }

    /// <summary>Gets a timestamp's 100 ns ticks since the Unix epoch.</summary>
    /// <param name="value">The timestamp.</param>
    /// <returns>The ticks.</returns>
    public static long Ticks(DateTimeOffset value) => value.UtcTicks - DateTimeOffset.UnixEpoch.UtcTicks;

    /// <summary>Gets a date's 100 ns ticks since the Unix epoch, treating unspecified kinds as UTC.</summary>
    /// <param name="value">The date.</param>
    /// <returns>The ticks.</returns>
    public static long Ticks(DateTime value) =>
        (value.Kind == DateTimeKind.Local ? value.ToUniversalTime() : value).Ticks - DateTime.UnixEpoch.Ticks;

    /// <summary>Reads a timestamp.</summary>
    /// <param name="reader">The reader.</param>
    /// <returns>The timestamp, in UTC.</returns>
    public static DateTimeOffset ReadDateTimeOffset(ref CompactReader reader) =>
        DateTimeOffset.UnixEpoch.AddTicks(ReadSigned(ref reader, -DateTimeOffset.UnixEpoch.UtcTicks, DateTimeOffset.MaxValue.UtcTicks - DateTimeOffset.UnixEpoch.UtcTicks));

    /// <summary>Reads a date.</summary>
    /// <param name="reader">The reader.</param>
    /// <returns>The date, of kind UTC.</returns>
    public static DateTime ReadDateTime(ref CompactReader reader) => ReadDateTimeOffset(ref reader).UtcDateTime;

    /// <summary>Starts reading a length-delimited record, list or map one level deeper.</summary>
    /// <param name="reader">The reader positioned on the value.</param>
    /// <param name="limits">The limits.</param>
    /// <param name="depth">The depth of the enclosing record.</param>
    /// <returns>A reader over the nested bytes.</returns>
    public static CompactReader Nested(ref CompactReader reader, CompactLimits limits, int depth)
    {
        ArgumentNullException.ThrowIfNull(limits);
        if (depth >= limits.MaxDepth)
        {
            CompactThrow.TooDeep(limits.MaxDepth, reader.Offset);
        }

        return new CompactReader(reader.ReadLengthDelimited(out var start), start);
    }

    /// <summary>Reads a nested record.</summary>
    /// <typeparam name="T">The record type.</typeparam>
    /// <param name="reader">The reader positioned on the value.</param>
    /// <param name="limits">The limits.</param>
    /// <param name="depth">The depth of the enclosing record.</param>
    /// <returns>The record.</returns>
    public static T ReadRecord<T>(ref CompactReader reader, CompactLimits limits, int depth)
        where T : ICompactSerializable<T>
    {
        var nested = Nested(ref reader, limits, depth);
        return T.ReadFields(ref nested, limits, depth + 1);
    }

    /// <summary>Gets a record's field bytes through its interface, whether implemented publicly or explicitly (unions).</summary>
    /// <typeparam name="T">The record type.</typeparam>
    /// <param name="value">The record.</param>
    /// <returns>The byte count of its fields.</returns>
    public static int RecordSize<T>(T value)
        where T : ICompactSerializable<T>
    {
        ArgumentNullException.ThrowIfNull(value);
        return value.GetFieldsSize();
    }

    /// <summary>Writes a record as a length-delimited value.</summary>
    /// <typeparam name="T">The record type.</typeparam>
    /// <param name="writer">The writer.</param>
    /// <param name="value">The record.</param>
    public static void WriteRecord<T>(ref CompactWriter writer, T value)
        where T : ICompactSerializable<T>
    {
        ArgumentNullException.ThrowIfNull(value);
        var length = writer.BeginLengthDelimited();
        value.WriteFields(ref writer);
        writer.EndLengthDelimited(length);
    }

    /// <summary>Fails a union read whose tag names no known case.</summary>
    /// <param name="tag">The tag read.</param>
    /// <param name="union">The union type's name.</param>
    /// <param name="offset">The tag's offset.</param>
    /// <returns>Never returns.</returns>
    public static CompactFormatException UnknownUnionCase(int tag, string union, int offset) =>
        new(CompactErrorCodes.BadValue, string.Create(CultureInfo.InvariantCulture, $"Union {union} has no case with tag {tag}."), offset);

    /// <summary>Fails a union read that holds no case, or a second one after its case.</summary>
    /// <param name="union">The union type's name.</param>
    /// <param name="none">Whether it holds none.</param>
    /// <param name="offset">Where the value ends, or where the second case starts.</param>
    /// <returns>Never returns.</returns>
    public static CompactFormatException UnionCaseCount(string union, bool none, int offset) => none
        ? new(CompactErrorCodes.BadValue, $"A {union} value holds no case.", offset)
        : new(CompactErrorCodes.Repeated, $"A {union} value holds more than one case; a union holds exactly one.", offset);

    /// <summary>Fails a required member that a record does not hold.</summary>
    /// <param name="name">The member.</param>
    /// <param name="index">Its field index.</param>
    /// <param name="offset">Where the record ends.</param>
    /// <returns>Never returns.</returns>
    public static CompactFormatException MissingField(string name, int index, int offset)
    {
        var missing = new CompactFormatException(CompactErrorCodes.MissingField, string.Create(CultureInfo.InvariantCulture, $"The required field '{name}' (index {index}) is missing."), offset);
        missing.PrependPath(name);
        return missing;
    }

    /// <summary>Fails the write of a list or map whose element or value is null: the format has no null in a collection.</summary>
    /// <param name="member">The list or map member.</param>
    /// <returns>Never returns.</returns>
    public static ArgumentException NullElement(string member) =>
        new($"{member} holds a null element or value; a compact list or map has no null (an absent value is a missing field, not an element).", member);

    /// <summary>Checks that a nested list or map was read to its end.</summary>
    /// <param name="reader">The nested reader.</param>
    public static void ExpectEnd(ref CompactReader reader)
    {
        if (!reader.End)
        {
            CompactThrow.TrailingBytes("element", reader.Offset);
        }
    }

    /// <summary>Adds a field to an error's path as it passes up through a record; used by generated code.</summary>
    /// <param name="exception">The error.</param>
    /// <param name="segment">The field's name.</param>
    public static void AddPath(CompactFormatException exception, string segment)
    {
        ArgumentNullException.ThrowIfNull(exception);
        exception.PrependPath(segment);
    }

    /// <summary>Adds a list element's index to an error's path as it passes up; used by generated code.</summary>
    /// <param name="exception">The error.</param>
    /// <param name="index">The element's index.</param>
    public static void AddPath(CompactFormatException exception, int index)
    {
        ArgumentNullException.ThrowIfNull(exception);
        exception.PrependPath(index);
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowOutOfRange<T>(T value, int offset) =>
        throw new CompactFormatException(CompactErrorCodes.BadValue, string.Create(CultureInfo.InvariantCulture, $"{value} is out of the member's range."), offset);

    /// <summary>Records that a record's field was read, refusing one read before; used by generated code.</summary>
    /// <param name="seen">The bits of the fields read so far, 64 fields a word.</param>
    /// <param name="position">The field's bit in <paramref name="seen"/>.</param>
    /// <param name="index">The field index.</param>
    /// <param name="offset">The key's offset.</param>
    /// <exception cref="CompactFormatException">The field was read before: a writer writes each field once.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void MarkRead(ref ulong seen, int position, int index, int offset)
    {
        var bit = 1UL << position;
        if ((seen & bit) != 0)
        {
            CompactThrow.RepeatedField(index, offset);
        }

        seen |= bit;
    }

    /// <summary>
    /// Adds a map entry for a key just read, refusing a key the map holds already before its value is read, as the JSON
    /// decoder does; used by generated code.
    /// </summary>
    /// <typeparam name="TValue">The value type.</typeparam>
    /// <param name="map">The map read so far.</param>
    /// <param name="key">The key.</param>
    /// <param name="offset">The key's offset.</param>
    /// <returns>The new entry's value, to assign once it is read.</returns>
    /// <exception cref="CompactFormatException">The key is there already: a writer writes each key once.</exception>
    public static ref TValue? NewEntry<TValue>(Dictionary<string, TValue> map, string key, int offset)
    {
        ref var value = ref CollectionsMarshal.GetValueRefOrAddDefault(map, key, out var exists);
        if (exists)
        {
            CompactThrow.RepeatedKey(key, offset);
        }

        return ref value;
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowTypeChanged(WireType actual, WireType expected, int index, int offset) =>
        CompactThrow.TypeChanged(index, expected.ToString(), actual, offset);
}

using System.Buffers;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Unicode;
using Millrace.Compact.Schema;
using Millrace.Compact.Serialization;
using Millrace.Compact.Wire;

namespace Millrace.Compact;

/// <summary>
/// Encodes JSON to compact frames and decodes them back, driven by a runtime schema: for tools, and for any
/// service that holds its schemas as data. A JSON object becomes a single-record frame; an array of objects
/// becomes a collection frame, whose type header is written once for all records.
/// </summary>
public static class CompactJson
{
    /// <summary>Encodes a JSON object, or an array of objects, as a frame of <paramref name="typeName"/>.</summary>
    /// <param name="schema">The schema set.</param>
    /// <param name="typeName">The record type.</param>
    /// <param name="json">The JSON value.</param>
    /// <param name="compression">The body compression.</param>
    /// <param name="zstdDictionary">The dictionary zstd compresses with, if any; readers need the same one.</param>
    /// <returns>The frame.</returns>
    /// <exception cref="CompactFormatException">The JSON does not fit the schema; the path names the member.</exception>
    /// <exception cref="KeyNotFoundException">The type is not registered.</exception>
    public static byte[] Encode(CompactSchemaSet schema, string typeName, JsonElement json, CompactCompression compression = CompactCompression.None, CompactZstdDictionary? zstdDictionary = null)
    {
        ArgumentNullException.ThrowIfNull(schema);
        var type = schema[typeName];
        using var body = new PooledBufferWriter();
        var isCollection = json.ValueKind == JsonValueKind.Array;
        var writer = new CompactWriter(body);
        if (isCollection)
        {
            writer.WriteVarint((ulong)json.GetArrayLength());
            var index = 0;
            foreach (var record in json.EnumerateArray())
            {
                try
                {
                    EncodeRecordDelimited(ref writer, type, record);
                }
                catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(index))
                {
                    throw;
                }

                index++;
            }
        }
        else
        {
            EncodeRecord(ref writer, type, json);
        }

        writer.Flush();
        using var frame = new PooledBufferWriter();
        CompactFrame.Write(frame, type.Id, isCollection, body.WrittenSpan, compression, zstdDictionary);
        return frame.WrittenSpan.ToArray();
    }

    /// <summary>Decodes a frame to JSON.</summary>
    /// <param name="schema">The schema set that knows the frame's type id.</param>
    /// <param name="frame">The frame.</param>
    /// <param name="output">Where the JSON goes: an object, or an array for a collection frame.</param>
    /// <param name="limits">Depth, count, length and body limits.</param>
    /// <param name="zstdDictionary">The dictionary a zstd body was compressed with, if any.</param>
    /// <exception cref="CompactFormatException">The frame is malformed, or does not fit the schema.</exception>
    public static void Decode(CompactSchemaSet schema, ReadOnlyMemory<byte> frame, Utf8JsonWriter output, CompactLimits? limits = null, CompactZstdDictionary? zstdDictionary = null)
    {
        ArgumentNullException.ThrowIfNull(schema);
        ArgumentNullException.ThrowIfNull(output);
        limits ??= CompactLimits.Default;
        limits.Validate();
        var body = CompactFrame.BodyOf(frame, limits, out var typeId, out var isCollection, out var compression, zstdDictionary);
        if (!schema.TryGetType(typeId, out var type))
        {
            CompactThrow.Frame(string.Create(CultureInfo.InvariantCulture, $"No type with id {typeId} is registered."), 2);
        }

        try
        {
            DecodeBody(body.Span, type, isCollection, output, limits);
        }
        catch (CompactFormatException exception) when (CompactFrame.ScopeBodyOffset(exception, frame, body, compression))
        {
            throw;
        }
    }

    private static void DecodeBody(ReadOnlySpan<byte> body, CompactType type, bool isCollection, Utf8JsonWriter output, CompactLimits limits)
    {
        var reader = new CompactReader(body);
        if (!isCollection)
        {
            DecodeRecord(ref reader, type, output, limits, 0);
            return;
        }

        var count = reader.ReadCount(limits.MaxCollectionCount, 1);
        output.WriteStartArray();
        for (var i = 0; i < count; i++)
        {
            try
            {
                var record = new CompactReader(reader.ReadLengthDelimited(out var start), start);
                DecodeRecord(ref record, type, output, limits, 0);
            }
            catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(i))
            {
                throw;
            }
        }

        output.WriteEndArray();
        if (!reader.End)
        {
            CompactThrow.TrailingBytes("record of the collection", reader.Offset);
        }
    }

    // One writer goes down the whole tree by reference; a length-delimited value (a nested record, a list, a map) is
    // written into a buffer of its own first, since its length comes before it.
    private static void EncodeRecord(ref CompactWriter writer, CompactType type, JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
        {
            CompactThrow.Schema($"A {type.Name} must be a JSON object, not {json.ValueKind}.");
        }

        if (type.IsUnion)
        {
            EncodeUnion(ref writer, type, json);
            return;
        }

        // Members are checked in the JSON's order (an error names the member it meets first) and written in the order
        // of their indices, which the format asks of writers: one value, one encoding, whatever order the JSON has.
        var seen = new bool[type.Fields.Count];
        var values = new JsonElement[type.Fields.Count];
        HashSet<string>? unknown = null;
        JsonElement kept = default;
        foreach (var property in json.EnumerateObject())
        {
            var name = NameOf(property);
            if (type.RetainsUnknownFields && name == UnknownMember)
            {
                if (kept.ValueKind != JsonValueKind.Undefined)
                {
                    throw Repeated(name);
                }

                kept = property.Value;
                continue;
            }

            if (!type.TryGetField(name, out var field))
            {
                // An unknown name twice is refused as a known one is, so an error always means the member it finds first.
                if (!(unknown ??= new HashSet<string>(StringComparer.Ordinal)).Add(name))
                {
                    throw Repeated(name);
                }

                if (property.Value.ValueKind == JsonValueKind.Null)
                {
                    // Null is absent, whatever the name.
                    continue;
                }

                // Located at the member it names, so the text can say where it is.
                var noSuchField = new CompactFormatException(CompactErrorCodes.Schema, $"{type.Name} has no field named '{name}'.", 0);
                noSuchField.PrependPath(name);
                throw noSuchField;
            }

            // A member named twice has two values and the frame room for one: refused rather than one kept silently.
            if (Seen(seen, type.PositionOf(field)))
            {
                throw Repeated(name);
            }

            values[type.PositionOf(field)] = property.Value;
        }

        for (var position = 0; position < values.Length; position++)
        {
            var field = type.Fields[position];
            if (values[position].ValueKind is JsonValueKind.Undefined or JsonValueKind.Null)
            {
                if (field.IsRequired && !field.OmitDefault)
                {
                    throw CompactValues.MissingField(field.Name, field.Index, 0);
                }

                continue;
            }

            try
            {
                if (field.OmitDefault)
                {
                    // The value is encoded aside first: it is left out when its encoding is the default's.
                    using var value = new PooledBufferWriter();
                    var aside = new CompactWriter(value);
                    EncodeValue(ref aside, field.Type, values[position]);
                    aside.Flush();
                    if (!value.WrittenSpan.SequenceEqual(DefaultEncoding(field.Type)))
                    {
                        writer.WriteKey(field.Index, field.Type.WireType);
                        writer.WriteRaw(value.WrittenSpan);
                    }

                    continue;
                }

                writer.WriteKey(field.Index, field.Type.WireType);
                EncodeValue(ref writer, field.Type, values[position]);
            }
            catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(field.Name))
            {
                throw;
            }
        }

        if (kept.ValueKind != JsonValueKind.Undefined)
        {
            try
            {
                writer.WriteRaw(KeptFields(type, kept));
            }
            catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(UnknownMember))
            {
                throw;
            }
        }
    }

    /// <summary>The JSON member that holds a record's kept unknown fields, base64, when its type retains them.</summary>
    private const string UnknownMember = "$unknown";

    // A record's kept unknown fields as given in JSON: whole fields, none of them one the type knows, so writing them back
    // after the record's own fields makes a record its readers accept.
    private static byte[] KeptFields(CompactType type, JsonElement kept)
    {
        if (kept.ValueKind != JsonValueKind.String || !kept.TryGetBytesFromBase64(out var bytes))
        {
            throw new CompactFormatException(CompactErrorCodes.Schema, $"The kept unknown fields of a {type.Name} must be a base64 string.", 0);
        }

        var reader = new CompactReader(bytes);
        while (reader.TryReadKey(out var index, out var wireType))
        {
            if (type.TryGetField(index, out var known))
            {
                throw new CompactFormatException(CompactErrorCodes.Schema, $"The kept unknown fields of a {type.Name} hold field {index}, which is its field '{known.Name}'.", 0);
            }

            reader.Skip(wireType);
        }

        return bytes;
    }

    // The encoding of a type's default (docs/compact-format.md, Defaults): all zeros or empty. A writer leaves out a value
    // so encoded, and a reader reads it for an absent field that omits its default.
    private static ReadOnlySpan<byte> DefaultEncoding(CompactFieldType type) => type.Kind switch
    {
        CompactFieldKind.Decimal or CompactFieldKind.Guid => [16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        CompactFieldKind.List or CompactFieldKind.Map => [1, 0],
        CompactFieldKind.Float32 => [0, 0, 0, 0],
        CompactFieldKind.Float64 => [0, 0, 0, 0, 0, 0, 0, 0],
        _ => [0],
    };

    private static void EncodeUnion(ref CompactWriter writer, CompactType union, JsonElement json)
    {
        using var members = json.EnumerateObject();
        if (!members.MoveNext() || members.Current.Value.ValueKind == JsonValueKind.Null || members.MoveNext())
        {
            CompactThrow.Schema($"A {union.Name} is a JSON object with exactly one member, its case: {{\"{union.Cases[0].TypeName}\": {{...}}}}.");
        }

        var property = json.EnumerateObject().First();
        var name = NameOf(property);
        var unionCase = union.Cases.FirstOrDefault(c => c.TypeName == name);
        if (unionCase is null)
        {
            var noSuchCase = new CompactFormatException(CompactErrorCodes.Schema, $"{union.Name} has no case named '{name}'; its cases are {string.Join(", ", union.Cases.Select(c => c.TypeName))}.", 0);
            noSuchCase.PrependPath(name);
            throw noSuchCase;
        }

        writer.WriteKey(unionCase.Tag, WireType.LengthDelimited);
        try
        {
            EncodeRecordDelimited(ref writer, unionCase.Type!, property.Value);
        }
        catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(name))
        {
            throw;
        }
    }

    private static void EncodeValue(ref CompactWriter writer, CompactFieldType type, JsonElement value)
    {
        if (value.ValueKind == JsonValueKind.Null)
        {
            // A member's null is its absence, passed over before here; a list's element or a map's value has no absence.
            throw new CompactFormatException(CompactErrorCodes.Schema, $"The JSON value does not fit {type}: it is null.", 0);
        }

        try
        {
            switch (type.Kind)
            {
                case CompactFieldKind.Bool:
                    writer.WriteVarint(value.GetBoolean() ? 1UL : 0UL);
                    break;
                case CompactFieldKind.Int32 or CompactFieldKind.Int64:
                    var integer = type.Kind == CompactFieldKind.Int32 ? value.GetInt32() : value.GetInt64();
                    if (type.Encoding == IntegerEncoding.TwosComplement)
                    {
                        writer.WriteVarint((ulong)integer);
                    }
                    else
                    {
                        writer.WriteSigned(integer);
                    }

                    break;
                case CompactFieldKind.UInt32:
                    writer.WriteVarint(value.GetUInt32());
                    break;
                case CompactFieldKind.UInt64:
                    writer.WriteVarint(value.GetUInt64());
                    break;
                case CompactFieldKind.Float32:
                    writer.WriteFixed32((uint)BitConverter.SingleToInt32Bits(Finite(value.GetSingle())));
                    break;
                case CompactFieldKind.Float64:
                    writer.WriteFixed64((ulong)BitConverter.DoubleToInt64Bits(Finite(value.GetDouble())));
                    break;
                case CompactFieldKind.Decimal:
                    CompactValues.WriteDecimal(ref writer, value.GetDecimal());
                    break;
                case CompactFieldKind.String:
                    writer.WriteString(value.GetString()!);
                    break;
                case CompactFieldKind.Bytes:
                    writer.WriteLengthDelimited(value.GetBytesFromBase64());
                    break;
                case CompactFieldKind.Guid:
                    CompactValues.WriteGuid(ref writer, value.GetGuid());
                    break;
                case CompactFieldKind.Timestamp:
                    // A time without its offset would be read in the machine's zone: one value, two instants.
                    writer.WriteSigned(HasOffset(value.GetString()) ? CompactValues.Ticks(value.GetDateTimeOffset()) : throw new FormatException());
                    break;
                case CompactFieldKind.Duration:
                    writer.WriteSigned(TimeSpan.ParseExact(value.GetString()!, "c", CultureInfo.InvariantCulture).Ticks);
                    break;
                default:
                    EncodeLengthDelimited(ref writer, type, value);
                    break;
            }
        }
        catch (Exception exception) when (exception is InvalidOperationException or FormatException or OverflowException)
        {
            // Said in the schema's and the JSON's words, not in the platform's (which name its own methods and types).
            if (!Utf8.IsValid(JsonMarshal.GetRawUtf8Value(value)))
            {
                throw new CompactFormatException(CompactErrorCodes.BadEncoding, $"The JSON value for {type} is not UTF-8: JSON text must be.", 0);
            }

            var text = value.GetRawText();
            text = text.Length > 40 ? text[..40] + "…" : text;
            var why = exception switch
            {
                // A string the platform cannot unescape: for a string field, the reason is that UTF-8 cannot carry it; a
                // guid, timestamp, duration or base64 text holding one is simply not one.
                InvalidOperationException when value.ValueKind == JsonValueKind.String && type.Kind == CompactFieldKind.String => $"its text {UnpairedSurrogate}",
                InvalidOperationException when value.ValueKind == JsonValueKind.String && type.Kind is CompactFieldKind.Bytes or CompactFieldKind.Guid or CompactFieldKind.Timestamp or CompactFieldKind.Duration => $"{text} is not one",
                InvalidOperationException => $"it is {Describe(value.ValueKind)}",
                OverflowException => $"{text} is out of its range",
                _ => $"{text} is not one",
            };
            throw new CompactFormatException(CompactErrorCodes.Schema, $"The JSON value does not fit {type}: {why}.", 0);
        }
    }

    // ISO 8601 ends a time with Z or its offset from UTC, ±hh:mm.
    private static bool HasOffset(string? text) =>
        text is { Length: > 6 } && (text[^1] is 'Z' or 'z' || (text[^6] is '+' or '-' && text[^3] == ':'));

    private const string UnpairedSurrogate = "holds an unpaired surrogate (an escape from \\uD800 to \\uDFFF without its pair), which UTF-8 cannot carry";

    // JSON has no infinity: a number past the type's range is one the platform rounds to it, and decoding could not
    // give it back.
    private static T Finite<T>(T value)
        where T : System.Numerics.IFloatingPointIeee754<T> =>
        T.IsFinite(value) ? value : throw new OverflowException();

    // A member's name, or a map's key. The platform refuses to unescape one whose escapes make an unpaired surrogate, in
    // its own words (and, for a record's member, past the encoder's catch): refused here in the schema's.
    private static string NameOf(JsonProperty property)
    {
        try
        {
            return property.Name;
        }
        catch (InvalidOperationException)
        {
            throw Utf8.IsValid(JsonMarshal.GetRawUtf8PropertyName(property))
                ? new CompactFormatException(CompactErrorCodes.Schema, $"A JSON member's name {UnpairedSurrogate}.", 0)
                : new CompactFormatException(CompactErrorCodes.BadEncoding, "A JSON member's name is not UTF-8: JSON text must be.", 0);
        }
    }

    private static string Describe(JsonValueKind kind) => kind switch
    {
        JsonValueKind.Object => "an object",
        JsonValueKind.Array => "an array",
        JsonValueKind.String => "a string",
        JsonValueKind.Number => "a number",
        JsonValueKind.True or JsonValueKind.False => "a boolean",
        _ => "null",
    };

    private static void EncodeLengthDelimited(ref CompactWriter writer, CompactFieldType type, JsonElement value)
    {
        if (type.Kind is not (CompactFieldKind.List or CompactFieldKind.Map))
        {
            EncodeRecordDelimited(ref writer, type.Record!, value);
            return;
        }

        var length = writer.BeginLengthDelimited();
        switch (type.Kind)
        {
            case CompactFieldKind.List:
                writer.WriteVarint((ulong)value.GetArrayLength());
                var index = 0;
                foreach (var element in value.EnumerateArray())
                {
                    try
                    {
                        EncodeValue(ref writer, type.Element!, element);
                    }
                    catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(index))
                    {
                        throw;
                    }

                    index++;
                }

                break;
            default:
                writer.WriteVarint((ulong)value.EnumerateObject().Count());
                var keys = new HashSet<string>(StringComparer.Ordinal);
                foreach (var entry in value.EnumerateObject())
                {
                    var key = NameOf(entry);
                    try
                    {
                        // The decoders' refusal of a repeated key, located by the same filter as the entry's value.
                        if (!keys.Add(key))
                        {
                            CompactThrow.RepeatedKey(key, 0);
                        }

                        writer.WriteString(key);
                        EncodeValue(ref writer, type.Element!, entry.Value);
                    }
                    catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(key))
                    {
                        throw;
                    }
                }

                break;
        }

        writer.EndLengthDelimited(length);
    }

    private static void EncodeRecordDelimited(ref CompactWriter writer, CompactType type, JsonElement json)
    {
        var length = writer.BeginLengthDelimited();
        EncodeRecord(ref writer, type, json);
        writer.EndLengthDelimited(length);
    }

    private static void DecodeRecord(ref CompactReader reader, CompactType type, Utf8JsonWriter output, CompactLimits limits, int depth)
    {
        if (type.IsUnion)
        {
            DecodeUnion(ref reader, type, output, limits, depth);
            return;
        }

        output.WriteStartObject();
        var seen = new bool[type.Fields.Count];
        using var kept = type.RetainsUnknownFields ? new PooledBufferWriter() : null;
        while (true)
        {
            var keyOffset = reader.Offset;
            if (!reader.TryReadKey(out var index, out var wireType))
            {
                break;
            }

            if (!type.TryGetField(index, out var field))
            {
                // Unknown fields come from newer writers: skip them, so old readers keep working (and keep them, if the type does).
                reader.Skip(wireType);
                kept?.Write(reader.Since(keyOffset));
                continue;
            }

            try
            {
                if (Seen(seen, type.PositionOf(field)))
                {
                    CompactThrow.RepeatedField(index, keyOffset);
                }

                if (wireType != field.Type.WireType)
                {
                    CompactThrow.TypeChanged(index, string.Create(CultureInfo.InvariantCulture, $"{field.Type} ({field.Type.WireType})"), wireType, keyOffset);
                }

                output.WritePropertyName(field.Name);
                DecodeValue(ref reader, field.Type, output, limits, depth);
            }
            catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(field.Name))
            {
                throw;
            }
        }

        for (var position = 0; position < seen.Length; position++)
        {
            var field = type.Fields[position];
            if (seen[position])
            {
                continue;
            }

            if (field.OmitDefault)
            {
                // Absent, a field that omits its default holds it: the value its all-zero encoding reads as.
                var absent = new CompactReader(DefaultEncoding(field.Type));
                output.WritePropertyName(field.Name);
                DecodeValue(ref absent, field.Type, output, limits, depth);
            }
            else if (field.IsRequired)
            {
                throw CompactValues.MissingField(field.Name, field.Index, reader.Offset);
            }
        }

        if (kept is { WrittenCount: > 0 })
        {
            output.WriteBase64String(UnknownMember, kept.WrittenSpan);
        }

        output.WriteEndObject();
    }

    private static void DecodeUnion(ref CompactReader reader, CompactType union, Utf8JsonWriter output, CompactLimits limits, int depth)
    {
        var offset = reader.Offset;
        if (!reader.TryReadKey(out var tag, out var wireType))
        {
            throw CompactValues.UnionCaseCount(union.Name, none: true, offset);
        }

        var unionCase = union.Cases.FirstOrDefault(c => c.Tag == tag) ?? throw CompactValues.UnknownUnionCase(tag, union.Name, offset);
        if (wireType != WireType.LengthDelimited)
        {
            CompactThrow.TypeChanged(tag, "a union case (LengthDelimited)", wireType, offset);
        }

        output.WriteStartObject();
        output.WritePropertyName(unionCase.TypeName);
        try
        {
            if (depth >= limits.MaxDepth)
            {
                CompactThrow.TooDeep(limits.MaxDepth, reader.Offset);
            }

            var nested = new CompactReader(reader.ReadLengthDelimited(out var start), start);
            DecodeRecord(ref nested, unionCase.Type!, output, limits, depth + 1);
        }
        catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(unionCase.TypeName))
        {
            throw;
        }

        output.WriteEndObject();
        if (!reader.End)
        {
            throw CompactValues.UnionCaseCount(union.Name, none: false, reader.Offset);
        }
    }

    private static void DecodeValue(ref CompactReader reader, CompactFieldType type, Utf8JsonWriter output, CompactLimits limits, int depth)
    {
        var offset = reader.Offset;
        switch (type.Kind)
        {
            case CompactFieldKind.Bool:
                output.WriteBooleanValue(CompactValues.ReadBool(ref reader));
                break;
            case CompactFieldKind.Int32:
                output.WriteNumberValue(ReadInteger(ref reader, type) is var i32 and >= int.MinValue and <= int.MaxValue ? (int)i32 : throw OutOfRange(type, offset));
                break;
            case CompactFieldKind.Int64:
                output.WriteNumberValue(ReadInteger(ref reader, type));
                break;
            case CompactFieldKind.UInt32:
                output.WriteNumberValue(reader.ReadVarint() is var u32 and <= uint.MaxValue ? (uint)u32 : throw OutOfRange(type, offset));
                break;
            case CompactFieldKind.UInt64:
                output.WriteNumberValue(reader.ReadVarint());
                break;
            case CompactFieldKind.Float32:
                var single = BitConverter.Int32BitsToSingle((int)reader.ReadFixed32());
                EnsureFinite(single, offset);
                output.WriteNumberValue(single);
                break;
            case CompactFieldKind.Float64:
                var number = BitConverter.Int64BitsToDouble((long)reader.ReadFixed64());
                EnsureFinite(number, offset);
                output.WriteNumberValue(number);
                break;
            case CompactFieldKind.Decimal:
                var amount = CompactValues.ReadDecimal(ref reader);
                if (amount == 0m && decimal.IsNegative(amount))
                {
                    // A negative zero is a value of its own (the spec keeps it); the platform prints it without its sign.
                    output.WriteRawValue("-" + amount.ToString(CultureInfo.InvariantCulture));
                }
                else
                {
                    output.WriteNumberValue(amount);
                }

                break;
            case CompactFieldKind.String:
                output.WriteStringValue(reader.ReadString(limits.MaxStringLength));
                break;
            case CompactFieldKind.Bytes:
                output.WriteBase64StringValue(CompactValues.ReadBytes(ref reader, limits));
                break;
            case CompactFieldKind.Guid:
                output.WriteStringValue(CompactValues.ReadGuid(ref reader));
                break;
            case CompactFieldKind.Timestamp:
                output.WriteStringValue(CompactValues.ReadDateTimeOffset(ref reader));
                break;
            case CompactFieldKind.Duration:
                output.WriteStringValue(TimeSpan.FromTicks(reader.ReadSigned()).ToString("c", CultureInfo.InvariantCulture));
                break;
            default:
                if (depth >= limits.MaxDepth)
                {
                    CompactThrow.TooDeep(limits.MaxDepth, offset);
                }

                var nested = new CompactReader(reader.ReadLengthDelimited(out var start), start);
                DecodeNested(ref nested, type, output, limits, depth + 1);
                break;
        }
    }

    private static void DecodeNested(ref CompactReader reader, CompactFieldType type, Utf8JsonWriter output, CompactLimits limits, int depth)
    {
        if (type.Kind == CompactFieldKind.Record)
        {
            DecodeRecord(ref reader, type.Record!, output, limits, depth);
            return;
        }

        var element = type.Element!;
        var count = reader.ReadCount(limits.MaxCollectionCount, SchemaTypeText.MinimumElementSize(element.WireType, type.Kind == CompactFieldKind.Map));
        if (type.Kind == CompactFieldKind.List)
        {
            output.WriteStartArray();
        }
        else
        {
            output.WriteStartObject();
        }

        var keys = type.Kind == CompactFieldKind.Map ? new HashSet<string>(StringComparer.Ordinal) : null;
        for (var i = 0; i < count; i++)
        {
            // A key that cannot be read is the map's error (its path ends at the map, as no key names the entry); a repeated
            // key's and a value's are the entry's, under its key.
            var keyOffset = reader.Offset;
            var key = keys is null ? null : reader.ReadString(limits.MaxStringLength);
            try
            {
                if (key is not null)
                {
                    if (!keys!.Add(key))
                    {
                        CompactThrow.RepeatedKey(key, keyOffset);
                    }

                    output.WritePropertyName(key);
                }

                DecodeValue(ref reader, element, output, limits, depth);
            }
            catch (CompactFormatException exception) when (key is null ? exception.PrependPathAndPropagate(i) : exception.PrependPathAndPropagate(key))
            {
                throw;
            }
        }

        if (type.Kind == CompactFieldKind.List)
        {
            output.WriteEndArray();
        }
        else
        {
            output.WriteEndObject();
        }

        if (!reader.End)
        {
            CompactThrow.TrailingBytes("element", reader.Offset);
        }
    }

    private static CompactFormatException Repeated(string member)
    {
        var repeated = new CompactFormatException(CompactErrorCodes.Repeated, $"The member '{member}' appears twice in the object.", 0);
        repeated.PrependPath(member);
        return repeated;
    }

    // Whether the field at this place was met before in the record; it is met now.
    private static bool Seen(bool[] seen, int position)
    {
        var before = seen[position];
        seen[position] = true;
        return before;
    }

    private static void EnsureFinite(double value, int offset)
    {
        if (!double.IsFinite(value))
        {
            CompactThrow.BadValue("JSON cannot hold NaN or infinity.", offset);
        }
    }

    private static long ReadInteger(ref CompactReader reader, CompactFieldType type) =>
        type.Encoding == IntegerEncoding.TwosComplement ? (long)reader.ReadVarint() : reader.ReadSigned();

    private static CompactFormatException OutOfRange(CompactFieldType type, int offset) => new(CompactErrorCodes.BadValue, $"The value is out of range for {type}.", offset);
}

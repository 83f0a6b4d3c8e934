using Millrace.Compact.Schema;
using Millrace.Compact.Wire;
using Millrace.Generators;
using static Millrace.Generators.CodeTemplate;

namespace Millrace.Compact.Generator;

public sealed partial class CompactSchemaGenerator
{
    private const string Values = "global::Millrace.Compact.Serialization.CompactValues";
    private const string Sizes = "global::Millrace.Compact.Serialization.CompactSizes";
    private const string Wire = "global::Millrace.Compact.Wire.WireType";
    private const string FormatException = "global::Millrace.Compact.CompactFormatException";
    private const string Unknown = "global::Millrace.Compact.Serialization.CompactUnknownFields";

    private static string Emit(CompactTypeModel model) => PartialType(
        model.Namespace,
        model.Keyword,
        model.Name,
        $"global::Millrace.Compact.Serialization.ICompactSerializable<{model.FullName}>",
        model.Cases.Count > 0 ? EmitUnion(model) : EmitRecord(model));

    private static string EmitRecord(CompactTypeModel model) => $$"""
            /// <inheritdoc />
            public static int TypeId => {{model.TypeId}};

            /// <inheritdoc />
            public int GetFieldsSize()
            {
                var __size = 0;
        {{Indent(Lines(model.Fields.Select(field => Present(field, $"__size += {Sizes}.OfKey({field.Index}) + {FieldSize(field, Access(field))};"))), 8)}}
        {{(model.UnknownFields is { } sized ? $"        __size += this.{sized}?.Bytes.Length ?? 0;" : string.Empty)}}
                return __size;
            }

            /// <inheritdoc />
            public void WriteFields(ref global::Millrace.Compact.Wire.CompactWriter writer)
            {
        {{Indent(Paragraphs(model.Fields.Select(field => Present(field, FieldWrite(field, Access(field))))), 8)}}
        {{(model.UnknownFields is { } kept ? Indent($"if (this.{kept} is {{ }} __unknown)\n{{\n    writer.WriteRaw(__unknown.Bytes.Span);\n}}", 8) : string.Empty)}}
            }

        {{EmitRead(model)}}
        {{Lines(model.Fields.Where(field => field.Collection != CollectionKind.None).Select(PayloadSize))}}
        """;

    private static string EmitRead(CompactTypeModel model)
    {
        var members = model.Fields.Select((field, i) => new ConstructedMember(field.Name, "__m" + i, "__has" + i, field.IsRequired, field.IsInitOnly)).ToList();
        if (model.UnknownFields is { } kept)
        {
            members.Add(new ConstructedMember(kept, "__unknown", "__unknown is not null", IsRequired: false, model.UnknownFieldsInitOnly));
        }

        var setsAsRead = ConstructionEmitter.SetsAsRead(members);
        var locals = ConstructionEmitter.Start(model.FullName, setsAsRead, members, [.. model.Fields.Select(field => field.TypeName)]);
        var unknownLocal = model.UnknownFields is null ? string.Empty : $"\n        {Unknown}? __unknown = null;";
        var keepUnknown = model.UnknownFields is null ? string.Empty : $"\n                    (__unknown ??= new {Unknown}()).Append(reader.Since(__offset));";
        var construction = ConstructionEmitter.Finish(model.FullName, withCapable: model.Keyword != "class", setsAsRead, members, members.Skip(model.Fields.Count));
        return $$"""
                /// <inheritdoc />
                public static {{model.FullName}} ReadFields(ref global::Millrace.Compact.Wire.CompactReader reader, global::Millrace.Compact.CompactLimits limits, int depth)
                {
            {{Indent(locals, 8)}}{{unknownLocal}}
                    {{SeenLocals(model.Fields.Count)}}
                    string? __field = null;
                    try
                    {
                        while (true)
                        {
                            __field = null;
                            var __offset = reader.Offset;
                            if (!reader.TryReadKey(out var __index, out var __wire))
                            {
                                break;
                            }

                            switch (__index)
                            {
            {{Indent(Lines(model.Fields.Select((field, i) => ReadCase(field, i, ConstructionEmitter.Target(setsAsRead, members[i]), setsAsRead))), 20)}}
                                default:
                                    reader.Skip(__wire);{{keepUnknown}}
                                    break;
                            }
                        }
                    }
                    catch ({{FormatException}} __exception) when (__field is not null)
                    {
                        {{Values}}.AddPath(__exception, __field);
                        throw;
                    }

            {{Indent(Paragraphs(model.Fields.Select((field, i) => AbsentCheck(field, i, ConstructionEmitter.Target(setsAsRead, members[i]), setsAsRead))), 8)}}

            {{construction}}
                }
            """;
    }

    // A record holds each field once: a bit per field, 64 a word, says which were read.
    private static string SeenLocals(int fields) =>
        fields == 0 ? string.Empty : "ulong " + string.Join(", ", Enumerable.Range(0, (fields + 63) / 64).Select(word => $"__seen{word} = 0")) + ";";

    private static string ReadCase(FieldModel field, int i, string target, bool setsAsRead)
    {
        var wire = field.Collection == CollectionKind.None ? WireOf(field.Value) : WireType.LengthDelimited;
        var read = field.Collection == CollectionKind.None
            ? $"{target} = {ValueRead(field.Value, "reader", "depth")};"
            : $$"""
              var __nested = {{Values}}.Nested(ref reader, limits, depth);
              var __count = __nested.ReadCount(limits.MaxCollectionCount, {{MinimumElementSize(field)}});
              {{CollectionRead(field, target)}}
              {{Values}}.ExpectEnd(ref __nested);
              """;
        return $$"""
            case {{field.Index}}:
            {
                __field = "{{field.Name}}";
                {{Values}}.MarkRead(ref __seen{{i / 64}}, {{i % 64}}, {{field.Index}}, __offset);
                {{Values}}.ExpectWireType(__wire, {{Wire}}.{{wire}}, {{field.Index}}, __offset);
            {{Indent(read, 4)}}{{(setsAsRead ? string.Empty : $"\n    __has{i} = true;")}}
                break;
            }
            """;
    }

    // A collection's elements are one level deeper than the record holding it, and an element's error is under its index,
    // a value's under its key (one that cannot be read ends at the map: no key names the entry yet). One handler around the
    // loop, not one per element, keeps the loop as tight as it was.
    private static string CollectionRead(FieldModel field, string target) => field.Collection == CollectionKind.Map
        ? $$"""
          var __map = new global::System.Collections.Generic.Dictionary<string, {{field.Value.TypeName}}>(__count);
          string? __key = null;
          try
          {
              for (var __i = 0; __i < __count; __i++)
              {
                  __key = null;
                  var __keyOffset = __nested.Offset;
                  var __read = __nested.ReadName(limits.MaxStringLength);
                  __key = __read;
                  {{Values}}.NewEntry(__map, __read, __keyOffset) = {{ValueRead(field.Value, "__nested", "depth + 1")}};
              }
          }
          catch ({{FormatException}} __entry) when (__key is not null)
          {
              {{Values}}.AddPath(__entry, __key);
              throw;
          }

          {{target}} = __map;
          """
        : $$"""
          var __list = new global::System.Collections.Generic.List<{{field.Value.TypeName}}>(__count);
          var __i = 0;
          try
          {
              for (; __i < __count; __i++)
              {
                  __list.Add({{ValueRead(field.Value, "__nested", "depth + 1")}});
              }
          }
          catch ({{FormatException}} __element)
          {
              {{Values}}.AddPath(__element, __i);
              throw;
          }

          {{target}} = __list{{(field.Collection == CollectionKind.Array ? ".ToArray()" : string.Empty)}};
          """;

    private static int MinimumElementSize(FieldModel field) =>
        SchemaTypeText.MinimumElementSize(WireOf(field.Value), field.Collection == CollectionKind.Map);

    // After the read: a field that omits its default and was absent holds that default (not the member's initializer); a
    // required field that does not was missing.
    private static string AbsentCheck(FieldModel field, int i, string target, bool setsAsRead)
    {
        var absent = $"(__seen{i / 64} & (1UL << {i % 64})) == 0";
        if (field.OmitDefault)
        {
            return $$"""
                if ({{absent}})
                {
                    {{target}} = {{DefaultValue(field)}};{{(setsAsRead ? string.Empty : $" __has{i} = true;")}}
                }
                """;
        }

        return !field.IsRequired ? string.Empty : $$"""
            if ({{absent}})
            {
                throw {{Values}}.MissingField("{{field.Name}}", {{field.Index}}, reader.Offset);
            }
            """;
    }

    // The value whose encoding is all zeros or empty, as a C# expression (a record has none: MRCMP009 refuses OmitDefault on one).
    private static string DefaultValue(FieldModel field) => field.Collection switch
    {
        CollectionKind.Array => $"global::System.Array.Empty<{field.Value.TypeName}>()",
        CollectionKind.List => $"new global::System.Collections.Generic.List<{field.Value.TypeName}>()",
        CollectionKind.Map => $"new global::System.Collections.Generic.Dictionary<string, {field.Value.TypeName}>()",
        _ => field.Value.Kind switch
        {
            ValueKind.String => "\"\"",
            ValueKind.Bytes => "global::System.Array.Empty<byte>()",
            ValueKind.DateTime => "global::System.DateTime.UnixEpoch",
            ValueKind.DateTimeOffset => "global::System.DateTimeOffset.UnixEpoch",
            _ => "default",
        },
    };

    private static string EmitUnion(CompactTypeModel model)
    {
        var self = $"global::Millrace.Compact.Serialization.ICompactSerializable<{model.FullName}>";
        var notACase = $"throw new global::System.InvalidOperationException(GetType().Name + \" is not a case of union {model.Name}.\")";
        return $$"""
                static int {{self}}.TypeId => {{model.TypeId}};

                int {{self}}.GetFieldsSize() => this switch
                {
            {{Indent(Lines(model.Cases.Select(c => $"{c.TypeName} __case => {Sizes}.OfKey({c.Tag}) + {Sizes}.OfLengthDelimited({Values}.RecordSize<{c.TypeName}>(__case)),")), 8)}}
                    _ => {{notACase}},
                };

                void {{self}}.WriteFields(ref global::Millrace.Compact.Wire.CompactWriter writer)
                {
                    switch (this)
                    {
            {{Indent(Lines(model.Cases.Select(c => $$"""
                case {{c.TypeName}} __case:
                    writer.WriteKey({{c.Tag}}, {{Wire}}.LengthDelimited);
                    {{Values}}.WriteRecord<{{c.TypeName}}>(ref writer, __case);
                    break;
                """)), 12)}}
                        default:
                            {{notACase}};
                    }
                }

                static {{model.FullName}} {{self}}.ReadFields(ref global::Millrace.Compact.Wire.CompactReader reader, global::Millrace.Compact.CompactLimits limits, int depth)
                {
                    var __offset = reader.Offset;
                    if (!reader.TryReadKey(out var __tag, out var __wire))
                    {
                        throw {{Values}}.UnionCaseCount("{{model.Name}}", none: true, __offset);
                    }

                    {{model.FullName}} __result;
                    switch (__tag)
                    {
            {{Indent(Lines(model.Cases.Select(c => $$"""
                case {{c.Tag}}:
                    {{Values}}.ExpectWireType(__wire, {{Wire}}.LengthDelimited, __tag, __offset);
                    try
                    {
                        __result = {{Values}}.ReadRecord<{{c.TypeName}}>(ref reader, limits, depth);
                    }
                    catch ({{FormatException}} __exception)
                    {
                        {{Values}}.AddPath(__exception, "{{c.SchemaType}}");
                        throw;
                    }

                    break;
                """)), 12)}}
                        default:
                            throw {{Values}}.UnknownUnionCase(__tag, "{{model.Name}}", __offset);
                    }

                    if (!reader.End)
                    {
                        throw {{Values}}.UnionCaseCount("{{model.Name}}", none: false, reader.Offset);
                    }

                    return __result;
                }
            """;
    }

    private static string PayloadSize(FieldModel field) => $$"""

            private static int __PayloadSize_{{field.Name}}({{field.TypeName.TrimEnd('?')}} value)
            {
                var size = {{Sizes}}.OfVarint((ulong)value.{{(field.Collection == CollectionKind.Array ? "Length" : "Count")}});
                {{(field.Collection == CollectionKind.Map
                    ? $"foreach (var __pair in value)\n        {{\n            size += {Sizes}.OfString(__pair.Key) + {ValueSize(field.Value, Element(field, "__pair.Value"))};\n        }}"
                    : $"foreach (var __element in value)\n        {{\n            size += {ValueSize(field.Value, Element(field, "__element"))};\n        }}")}}

                return size;
            }
        """;

    private static string FieldSize(FieldModel field, string access) => field.Collection == CollectionKind.None
        ? ValueSize(field.Value, access)
        : $"{Sizes}.OfLengthDelimited(__PayloadSize_{field.Name}({access}))";

    private static string FieldWrite(FieldModel field, string access)
    {
        if (field.Collection == CollectionKind.None)
        {
            return KeyedValueWrite(field.Index, field.Value, access) ?? $"writer.WriteKey({field.Index}, {Wire}.{WireOf(field.Value)});\n{ValueWrite(field.Value, access)}";
        }

        var elements = field.Collection == CollectionKind.Map
            ? $$"""
              foreach (var __pair in {{access}})
              {
                  writer.WriteString(__pair.Key);
                  {{ValueWrite(field.Value, Element(field, "__pair.Value"))}}
              }
              """
            : $$"""
              foreach (var __element in {{access}})
              {
                  {{ValueWrite(field.Value, Element(field, "__element"))}}
              }
              """;
        return $$"""
            writer.WriteKey({{field.Index}}, {{Wire}}.LengthDelimited);
            var __length_{{field.Name}} = writer.BeginLengthDelimited();
            writer.WriteVarint((ulong){{access}}{{(field.Collection == CollectionKind.Array ? ".Length" : ".Count")}});
            {{elements}}
            writer.EndLengthDelimited(__length_{{field.Name}});
            """;
    }

    // A list's element or a map's value as written: one of a reference type is checked for null, which the format cannot hold.
    private static string Element(FieldModel field, string element) => field.Value.Kind is ValueKind.String or ValueKind.Bytes or ValueKind.Record && !field.Value.IsValueType
        ? $"({element} ?? throw {Values}.NullElement(\"{field.Name}\"))"
        : element;

    /// <summary>The value expression a present field is read through: <c>this.X</c>, or <c>this.X.GetValueOrDefault()</c> for a
    /// nullable value type (used only once it is known present; in a long generated method it inlines where <c>Value</c>,
    /// with its throw, may not).</summary>
    private static string Access(FieldModel field) => field.IsNullableValue ? $"this.{field.Name}.GetValueOrDefault()" : $"this.{field.Name}";

    /// <summary>Wraps a field's statements in the check that it is present: not null, and not its default when defaults are omitted.</summary>
    private static string Present(FieldModel field, string statements)
    {
        var self = "this." + field.Name;
        var value = Access(field);
        var conditions = new List<string>();
        if (field.IsNullableValue)
        {
            conditions.Add(self + ".HasValue");
        }
        else if (field.CanBeNull)
        {
            conditions.Add(self + " is not null");
        }

        if (field.OmitDefault)
        {
            conditions.Add(field.Collection switch
            {
                CollectionKind.Array => value + ".Length > 0",
                CollectionKind.List or CollectionKind.Map => value + ".Count > 0",
                _ => field.Value.Kind switch
                {
                    ValueKind.String or ValueKind.Bytes or ValueKind.Memory => value + ".Length > 0",

                    // The default is the value whose encoding is all zeros: +0.0 but not -0.0, 0m but not 0.00m or -0m, the epoch.
                    ValueKind.Float32 => $"global::System.BitConverter.SingleToUInt32Bits({value}) != 0",
                    ValueKind.Float64 => $"global::System.BitConverter.DoubleToUInt64Bits({value}) != 0",
                    ValueKind.Decimal => $"({value} != 0m || {value}.Scale != 0 || decimal.IsNegative({value}))",
                    ValueKind.DateTime or ValueKind.DateTimeOffset => $"{Values}.Ticks({value}) != 0",
                    _ => $"!global::System.Collections.Generic.EqualityComparer<{field.Value.TypeName}>.Default.Equals({value}, default!)",
                },
            });
        }

        return conditions.Count == 0 ? statements : $$"""
            if ({{string.Join(" && ", conditions)}})
            {
            {{Indent(statements, 4)}}
            }
            """;
    }

    private static WireType WireOf(ValueShape value) => value.Kind switch
    {
        ValueKind.Bool or ValueKind.Signed or ValueKind.TwosComplement or ValueKind.Unsigned or ValueKind.DateTime or ValueKind.DateTimeOffset or ValueKind.TimeSpan => WireType.Varint,
        ValueKind.Float32 => WireType.Fixed32,
        ValueKind.Float64 => WireType.Fixed64,
        _ => WireType.LengthDelimited,
    };

    private static string ValueSize(ValueShape value, string x) => value.Kind switch
    {
        ValueKind.Bool => "1",
        ValueKind.Signed => $"{Sizes}.OfZigZag((long){x})",
        ValueKind.TwosComplement => $"{Sizes}.OfVarint((ulong)(long){x})",
        ValueKind.Unsigned => $"{Sizes}.OfVarint((ulong){x})",
        ValueKind.Float32 => "4",
        ValueKind.Float64 => "8",
        ValueKind.Decimal or ValueKind.Guid => "17",
        ValueKind.String => $"{Sizes}.OfString({x})",
        ValueKind.Bytes or ValueKind.Memory => $"{Sizes}.OfLengthDelimited({x}.Length)",
        ValueKind.DateTime or ValueKind.DateTimeOffset => $"{Sizes}.OfZigZag({Values}.Ticks({x}))",
        ValueKind.TimeSpan => $"{Sizes}.OfZigZag({x}.Ticks)",
        _ => $"{Sizes}.OfLengthDelimited({Values}.RecordSize<{value.TypeName}>({x}))",
    };

    // The most common scalars write key and value with one request for buffer space; the rest write the key first.
    private static string? KeyedValueWrite(int index, ValueShape value, string x) => value.Kind switch
    {
        ValueKind.Bool => $"writer.WriteVarintField({index}, {x} ? 1UL : 0UL);",
        ValueKind.Signed => $"writer.WriteSignedField({index}, (long){x});",
        ValueKind.TwosComplement => $"writer.WriteVarintField({index}, (ulong)(long){x});",
        ValueKind.Unsigned => $"writer.WriteVarintField({index}, (ulong){x});",
        ValueKind.String => $"writer.WriteStringField({index}, {x});",
        ValueKind.DateTime or ValueKind.DateTimeOffset => $"writer.WriteSignedField({index}, {Values}.Ticks({x}));",
        ValueKind.TimeSpan => $"writer.WriteSignedField({index}, {x}.Ticks);",
        _ => null,
    };

    private static string ValueWrite(ValueShape value, string x) => value.Kind switch
    {
        ValueKind.Bool => $"writer.WriteVarint({x} ? 1UL : 0UL);",
        ValueKind.Signed => $"writer.WriteSigned((long){x});",
        ValueKind.TwosComplement => $"writer.WriteVarint((ulong)(long){x});",
        ValueKind.Unsigned => $"writer.WriteVarint((ulong){x});",
        ValueKind.Float32 => $"writer.WriteFixed32(global::System.BitConverter.SingleToUInt32Bits({x}));",
        ValueKind.Float64 => $"writer.WriteFixed64(global::System.BitConverter.DoubleToUInt64Bits({x}));",
        ValueKind.Decimal => $"{Values}.WriteDecimal(ref writer, {x});",
        ValueKind.String => $"writer.WriteString({x});",
        ValueKind.Bytes => $"writer.WriteLengthDelimited({x});",
        ValueKind.Memory => $"writer.WriteLengthDelimited({x}.Span);",
        ValueKind.Guid => $"{Values}.WriteGuid(ref writer, {x});",
        ValueKind.DateTime or ValueKind.DateTimeOffset => $"writer.WriteSigned({Values}.Ticks({x}));",
        ValueKind.TimeSpan => $"writer.WriteSigned({x}.Ticks);",
        _ => $"{Values}.WriteRecord<{value.TypeName}>(ref writer, {x});",
    };

    // A value read from r, within a value at depth (a record's own fields: the record's; a collection's elements: one more).
    private static string ValueRead(ValueShape value, string r, string depth) => value.Kind switch
    {
        ValueKind.Bool => $"{Values}.ReadBool(ref {r})",
        ValueKind.Signed => $"({value.TypeName}){Values}.ReadSigned(ref {r}, {value.StorageType}.MinValue, {value.StorageType}.MaxValue)",
        ValueKind.TwosComplement => $"({value.TypeName}){Values}.ReadTwosComplement(ref {r}, {value.StorageType}.MinValue, {value.StorageType}.MaxValue)",
        ValueKind.Unsigned => $"({value.TypeName}){Values}.ReadUnsigned(ref {r}, {value.StorageType}.MaxValue)",
        ValueKind.Float32 => $"global::System.BitConverter.UInt32BitsToSingle({r}.ReadFixed32())",
        ValueKind.Float64 => $"global::System.BitConverter.UInt64BitsToDouble({r}.ReadFixed64())",
        ValueKind.Decimal => $"{Values}.ReadDecimal(ref {r})",
        ValueKind.String => $"{r}.ReadString(limits.MaxStringLength)",
        ValueKind.Bytes => $"{Values}.ReadBytes(ref {r}, limits)",
        ValueKind.Memory => $"new global::System.ReadOnlyMemory<byte>({Values}.ReadBytes(ref {r}, limits))",
        ValueKind.Guid => $"{Values}.ReadGuid(ref {r})",
        ValueKind.DateTime => $"{Values}.ReadDateTime(ref {r})",
        ValueKind.DateTimeOffset => $"{Values}.ReadDateTimeOffset(ref {r})",
        ValueKind.TimeSpan => $"global::System.TimeSpan.FromTicks({r}.ReadSigned())",
        _ => $"{Values}.ReadRecord<{value.TypeName}>(ref {r}, limits, {depth})",
    };
}

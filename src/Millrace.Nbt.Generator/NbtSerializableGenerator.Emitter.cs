using Millrace.Generators;
using Microsoft.CodeAnalysis.CSharp;
using static Millrace.Generators.CodeTemplate;

namespace Millrace.Nbt.Generator;

public sealed partial class NbtSerializableGenerator
{
    private const string Reader = "global::Millrace.Nbt.Binary.NbtPullReader";
    private const string Writer = "global::Millrace.Nbt.Binary.NbtWriter";
    private const string TagType = "global::Millrace.Nbt.Tags.NbtTagType";
    private const string Serializer = "global::Millrace.Nbt.Serialization.NbtSerializer";

    private static string Emit(NbtTypeModel model)
    {
        var members = model.Members.Select((member, i) => new ConstructedMember(member.Name, "__m" + i, "__has" + i, member.IsRequired, member.IsInitOnly)).ToList();
        var setsAsRead = ConstructionEmitter.SetsAsRead(members);
        var locals = ConstructionEmitter.Start(model.FullName, setsAsRead, members, [.. model.Members.Select(member => member.TypeName)]);
        var construction = ConstructionEmitter.Finish(model.FullName, withCapable: model.Keyword != "class", setsAsRead, members, []);
        return PartialType(
        model.Namespace,
        model.Keyword,
        model.Name,
        $"global::Millrace.Nbt.Serialization.INbtSerializable<{model.FullName}>",
        $$"""
            /// <inheritdoc />
            public static {{model.FullName}} ReadNbt(ref {{Reader}} reader)
            {
        {{Indent(locals, 8)}}
                while (reader.ReadMember())
                {
                    // Every tag inside a compound has a name: it is compared with each member's as bytes, taken once.
                    var __name = reader.NameBytes;
        {{Indent(Paragraphs(model.Members.Select((member, i) => ReadMember(member, ConstructionEmitter.Target(setsAsRead, members[i]), setsAsRead, i))), 12)}}

                    reader.Skip();
                }

        {{Indent(Paragraphs(model.Members.Select(RequiredCheck)), 8)}}

        {{construction}}
            }

            /// <inheritdoc />
            public void WriteNbtMembers(ref {{Writer}} writer)
            {
        {{Indent(Paragraphs(model.Members.Select(WriteMember)), 8)}}
            }
        """);
    }

    // into: where the value goes (ConstructionEmitter.Target); a reader that reads into locals also raises the flag.
    private static string ReadMember(MemberModel member, string into, bool setsAsRead, int i)
    {
        var name = Literal(member.TagName);
        // An array is filled in place: the list's count was checked against the bytes that remain, and exactly that
        // many elements come before its end (a list and ToArray allocated it twice).
        var read = member.Collection switch
        {
            CollectionKind.None => $$"""
              {{Serializer}}.Expect(ref reader, {{TagType}}.{{TagTypeOf(member.Value)}}, {{name}});
              {{into}} = {{ReadExpression(member.Value)}};
              """,
            CollectionKind.Array => $$"""
              {{Serializer}}.ExpectElements(ref reader, {{TagType}}.{{TagTypeOf(member.Value)}}, {{name}});
              var __array = new {{member.Value.TypeName}}[reader.ListCount];
              for (var __i = 0; reader.ReadElement(); __i++)
              {
                  __array[__i] = {{ReadExpression(member.Value)}};
              }

              {{into}} = __array;
              """,
            _ => $$"""
              {{Serializer}}.ExpectElements(ref reader, {{TagType}}.{{TagTypeOf(member.Value)}}, {{name}});
              var __list = new global::System.Collections.Generic.List<{{member.Value.TypeName}}>(reader.ListCount);
              while (reader.ReadElement())
              {
                  __list.Add({{ReadExpression(member.Value)}});
              }

              {{into}} = __list;
              """,
        };
        return $$"""
            if (global::System.MemoryExtensions.SequenceEqual(__name, {{name}}u8))
            {
            {{Indent(read, 4)}}{{(setsAsRead ? string.Empty : $"\n    __has{i} = true;")}}
                continue;
            }
            """;
    }

    private static string RequiredCheck(MemberModel member, int i) => !member.IsRequired ? string.Empty : $$"""
        if (!__has{{i}})
        {
            throw new global::Millrace.Nbt.NbtFormatException({{Literal("The required tag '" + member.TagName + "' is missing.")}}, reader.BytesConsumed);
        }
        """;

    private static string WriteMember(MemberModel member)
    {
        // Read only once the member is known present: GetValueOrDefault inlines in a long method where Value may not.
        var access = member.IsNullableValue ? "this." + member.Name + ".GetValueOrDefault()" : "this." + member.Name;
        var name = Literal(member.TagName);
        var write = member.Collection == CollectionKind.None
            ? WriteValue(member.Value, name, access)
            : $$"""
              writer.WriteStartList({{name}}, {{TagType}}.{{TagTypeOf(member.Value)}}, {{access}}{{(member.Collection == CollectionKind.Array ? ".Length" : ".Count")}});
              foreach (var __element in {{access}})
              {
              {{Indent(WriteValue(member.Value, "null", "__element"), 4)}}
              }
              """;
        if (!member.IsNullableValue && !member.CanBeNull)
        {
            return write;
        }

        return $$"""
            if (this.{{member.Name}}{{(member.IsNullableValue ? ".HasValue" : " is not null")}})
            {
            {{Indent(write, 4)}}
            }
            """;
    }

    private static string ReadExpression(ValueShape value)
    {
        var stored = value.Storage switch
        {
            ValueKind.Bool => "reader.GetByte() != 0",
            ValueKind.SByte or ValueKind.Byte => "reader.GetByte()",
            ValueKind.Short => "reader.GetShort()",
            ValueKind.Int => "reader.GetInt()",
            ValueKind.Long => "reader.GetLong()",
            ValueKind.Float => "reader.GetFloat()",
            ValueKind.Double => "reader.GetDouble()",
            ValueKind.String => "reader.GetString()",
            ValueKind.ByteArray => "reader.GetByteArray().ToArray()",
            ValueKind.IntArray => "reader.GetIntArray()",
            ValueKind.LongArray => "reader.GetLongArray()",
            _ => value.TypeName + ".ReadNbt(ref reader)",
        };

        return value.Kind switch
        {
            ValueKind.Enum => $"({value.TypeName})unchecked(({value.StorageTypeName}){stored})",
            ValueKind.Byte or ValueKind.Short or ValueKind.Int or ValueKind.Long => $"unchecked(({value.TypeName}){stored})",
            _ => stored,
        };
    }

    private static string WriteValue(ValueShape value, string name, string access) => value.Storage switch
    {
        ValueKind.Bool => $"writer.WriteByte({name}, {access} ? (sbyte)1 : (sbyte)0);",
        ValueKind.SByte or ValueKind.Byte => $"writer.WriteByte({name}, unchecked((sbyte){access}));",
        ValueKind.Short => $"writer.WriteShort({name}, unchecked((short){access}));",
        ValueKind.Int => $"writer.WriteInt({name}, unchecked((int){access}));",
        ValueKind.Long => $"writer.WriteLong({name}, unchecked((long){access}));",
        ValueKind.Float => $"writer.WriteFloat({name}, {access});",
        ValueKind.Double => $"writer.WriteDouble({name}, {access});",
        ValueKind.String => $"writer.WriteString({name}, {access});",
        ValueKind.ByteArray => $"writer.WriteByteArray({name}, {access});",
        ValueKind.IntArray => $"writer.WriteIntArray({name}, {access});",
        ValueKind.LongArray => $"writer.WriteLongArray({name}, {access});",
        _ => $$"""
            writer.WriteStartCompound({{name}});
            {{access}}.WriteNbtMembers(ref writer);
            writer.WriteEndCompound();
            """,
    };

    private static string TagTypeOf(ValueShape value) => value.Storage switch
    {
        ValueKind.Bool or ValueKind.SByte or ValueKind.Byte => "Byte",
        ValueKind.Object => "Compound",
        var kind => kind.ToString(),
    };

    private static string Literal(string text) => SymbolDisplay.FormatLiteral(text, quote: true);
}

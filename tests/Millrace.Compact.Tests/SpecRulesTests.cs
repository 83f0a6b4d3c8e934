using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

/// <summary>The rules docs/compact-format.md states for readers and writers (one value, one encoding; which code a limit
/// raises; a schema file means exactly what it says), each against bytes written by hand.</summary>
public class SpecRulesTests
{
    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse("""
        {"types":[{"name":"Item","id":5,"fields":[
          {"name":"count","index":1,"type":"uint64"},
          {"name":"name","index":2,"type":"string"},
          {"name":"tags","index":3,"type":"list<string>"}]}]}
        """);

    public static TheoryData<byte[], long> OverlongVarints() => new()
    {
        // Offsets count the body's bytes, after the 3-byte header, as every error's does. count = 4 as 84 00; the key 04
        // (index 1, varint) as 84 80 00; the string's length 1 as 81 00.
        { [0x01, 0x00, 0x05, 0x04, 0x84, 0x00], 1 },
        { [0x01, 0x00, 0x05, 0x84, 0x80, 0x00, 0x04], 0 },
        { [0x01, 0x00, 0x05, 0x0B, 0x81, 0x00, 0x61], 1 },
        // A 10-byte varint holds a value of 2^63 or more only: its tenth byte is 01.
        { [0x01, 0x00, 0x05, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00], 1 },
    };

    [Theory]
    [MemberData(nameof(OverlongVarints))]
    public void AVarintNotInItsShortestForm_IsRefused_AtItsFirstByte(byte[] frame, long offset)
    {
        var exception = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, frame));
        Assert.Equal((CompactErrorCodes.BadEncoding, offset), (exception.Code, exception.ByteOffset));
    }

    [Fact]
    public void TheShortestForms_AtTheirBoundaries_AreRead()
    {
        Assert.Equal("""{"count":127}""", CompactTestSupport.Decode(Schema, [0x01, 0x00, 0x05, 0x04, 0x7F]));
        Assert.Equal("""{"count":128}""", CompactTestSupport.Decode(Schema, [0x01, 0x00, 0x05, 0x04, 0x80, 0x01]));
        Assert.Equal("""{"count":9223372036854775808}""", CompactTestSupport.Decode(Schema, [0x01, 0x00, 0x05, 0x04, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]));
        Assert.Equal("""{"count":18446744073709551615}""", CompactTestSupport.Decode(Schema, [0x01, 0x00, 0x05, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]));
    }

    [Fact]
    public void ATypeIdNotInItsShortestForm_IsAFrameError()
    {
        var exception = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, [0x01, 0x00, 0x85, 0x00]));
        Assert.Equal((CompactErrorCodes.Frame, 2L), (exception.Code, exception.ByteOffset));
    }

    [Fact]
    public void Fields_AreWrittenInTheOrderOfTheirIndices_WhateverTheJsonsOrder()
    {
        var ordered = CompactTestSupport.Encode(Schema, "Item", """{"count":3,"name":"a","tags":["x"]}""");
        var reversed = CompactTestSupport.Encode(Schema, "Item", """{"tags":["x"],"name":"a","count":3}""");
        Assert.Equal(ordered, reversed);
        Assert.Equal([0x01, 0x00, 0x05, 0x04, 0x03, 0x0B, 0x01, 0x61, 0x0F, 0x03, 0x01, 0x01, 0x78], ordered);
    }

    [Fact]
    public void AStringsLength_CheckedInItsMemberOrder_StillNamesTheMemberItMeetsFirst()
    {
        var exception = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Encode(Schema, "Item", """{"tags":["x"],"nope":1,"count":3}"""));
        Assert.Equal(CompactErrorCodes.Schema, exception.Code);
        Assert.Equal("nope", exception.Path);
    }

    [Fact]
    public void ABodyInflatingPastTheLimit_IsALimitError_AsAnUncompressedOneIs()
    {
        var name = new string('a', 5_000);
        var frame = CompactTestSupport.Encode(Schema, "Item", $$"""{"name":"{{name}}"}""", CompactCompression.Deflate);
        Assert.Equal(1, frame[1] & 3);
        var limits = new CompactLimits { MaxBodyLength = 1_000 };
        var compressed = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, frame, limits));
        var raw = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, CompactTestSupport.Encode(Schema, "Item", $$"""{"name":"{{name}}"}"""), limits));
        Assert.Equal(CompactErrorCodes.Limit, compressed.Code);
        Assert.Equal(CompactErrorCodes.Limit, raw.Code);
    }

    [Theory]
    [InlineData("""{"types":[],"version":2}""", "$: unknown member 'version'")]
    [InlineData("""{"types":[{"name":"A","id":1,"fields":[],"omitDefault":true}]}""", "$.types[0]: unknown member 'omitDefault'")]
    [InlineData("""{"types":[{"name":"A","id":1,"fields":[{"name":"a","index":1,"type":"int32"},{"name":"b","index":2,"type":"int32","omitDefaults":true}]}]}""", "$.types[0].fields[1]: unknown member 'omitDefaults'")]
    [InlineData("""{"types":[{"name":"A","id":1,"fields":[{"name":"a","index":1,"type":"int32","omitDefault":1}]}]}""", "$.types[0].fields[0].omitDefault: expected true or false, not a number")]
    [InlineData("""{"types":[{"name":"A","id":1}]}""", "$.types[0]: a type has either fields (a record) or cases (a union)")]
    [InlineData("""{"types":[{"name":"A","id":1,"fields":[],"cases":[]}]}""", "$.types[0]: a type has either fields (a record) or cases (a union)")]
    [InlineData("""{"types":[{"name":"A","id":1,"cases":[{"tag":1,"type":"B"}],"unknownFields":"retain"},{"name":"B","id":2,"fields":[]}]}""", "$.types[0].unknownFields: a union has no fields of its own")]
    [InlineData("""{"types":[{"name":"A","id":1,"fields":[],"unknownFields":"keep"}]}""", "$.types[0].unknownFields: expected \"skip\" or \"retain\"")]
    [InlineData("""{"types":[{"name":"A","id":1,"cases":[{"tag":0,"type":"B"}]},{"name":"B","id":2,"fields":[]}]}""", "$.types[0]: A.B: case tag 0 must be at least 1")]
    [InlineData("""{"types":[{"name":"A","id":1,"cases":[{"tag":1,"type":"A"}]}]}""", "$.types[0]: case 1 names 'A', which is not a record type")]
    [InlineData("""{"types":[{"name":"A","id":1.5,"fields":[]}]}""", "$.types[0].id: expected an integer")]
    [InlineData("""{"types":[{"name":"int32","id":1,"fields":[]}]}""", "$.types[0]: 'int32' is not a type name")]
    [InlineData("""{"types":[{"name":"a b","id":1,"fields":[]}]}""", "$.types[0]: 'a b' is not a type name")]
    [InlineData("""{"types":[{"name":"A","id":1,"fields":[{"name":"b","index":1,"type":"A","omitDefault":true}]}]}""", "$.types[0].fields[0] (A.b): omitDefault applies to a field whose type has a default")]
    [InlineData("{\"types\":[{\"name\":\"A\",\"id\":1,\"fields\":[\n{\"name\":\"b\",\"index\":1,\"type\":\"list<Nope>\"}]}]}", "$.types[0].fields[0] (A.b): unknown type 'Nope' (line 2, column 1)")]
    [InlineData("""{"types":[{"name":"A","id":1,"name":"B","fields":[]}]}""", "$.types[0]: the member 'name' is given twice (line 1, column 37)")]
    [InlineData("""{"types":[{"name":"A","id":1,"fields":[]}],}""", "$: expected a member name in quotes (line 1, column 44)")]
    [InlineData("""{"types":[{"name":"A","id":1,"id":2,"fields":[]}]}""", "$.types[0]: the member 'id' is given twice")]
    [InlineData("""{"types":[{"name":"A","id":1,"fields":[7]}]}""", "$.types[0].fields[0]: expected an object")]
    public void ASchemaFile_RefusesMembersItDoesNotKnow_WithWhereTheyAre(string json, string message)
    {
        var exception = Assert.Throws<FormatException>(() => CompactSchemaSet.Parse(json));
        Assert.StartsWith(message, exception.Message, StringComparison.Ordinal);
    }
}

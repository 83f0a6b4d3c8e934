using System.IO.Compression;
using Millrace.Compact.Schema;
using Millrace.Compact.Wire;

namespace Millrace.Compact.Tests;

/// <summary>A compressed single record's keys written as steps (the frame's flag 0b1000): smaller, and read back exactly.</summary>
public class KeyStepsTests
{
    private const string LargeSchema = """{"types":[{"name":"Large","id":3,"fields":[FIELDS]}]}""";

    private static readonly CompactSchemaSet Large = CompactSchemaSet.Parse(LargeSchema.Replace(
        "FIELDS", string.Join(',', Enumerable.Range(1, 50).Select(i => $$"""{"name":"field_{{i:00}}","index":{{i}},"type":"string"}""")), StringComparison.Ordinal));

    // The seed's large struct (elixir_proto's benchmarks/basic.exs): field i holds "value_1_i".
    private static readonly string LargeRecord = "{" + string.Join(',', Enumerable.Range(1, 50).Select(i => $"\"field_{i:00}\":\"value_1_{i}\"")) + "}";

    public static TheoryData<CompactCompression> Compressions => [CompactCompression.Deflate, CompactCompression.Brotli, CompactCompression.Zstd, CompactCompression.Auto];

    [Fact]
    public void Steps_AreTheDistancesBetweenIndices_GoldenBytes()
    {
        // Field 1 varint 5; field 2 the string "ab"; field 5 fixed32 1.0f; field 40 varint 0 (a two-byte key).
        byte[] body = [0x04, 0x05, 0x0B, 0x02, 0x61, 0x62, 0x15, 0x00, 0x00, 0x80, 0x3F, 0xA0, 0x01, 0x00];
        using var stepped = new PooledBufferWriter();

        Assert.True(CompactKeySteps.TryWrite(body, stepped));

        // Steps 1, 1, 3 and 35: (step << 2) | wire type.
        Assert.Equal([0x04, 0x05, 0x07, 0x02, 0x61, 0x62, 0x0D, 0x00, 0x00, 0x80, 0x3F, 0x8C, 0x01, 0x00], stepped.WrittenSpan.ToArray());
        Assert.Equal(body, CompactKeySteps.Restore(stepped.WrittenSpan, 1 << 20));
    }

    [Fact]
    public void RandomBodies_AreRestoredExactly() => PropertyCheck.Run(
        Prop.ForAll(Gen.Choose(0, int.MaxValue).ToArbitrary(), seed =>
        {
            var body = RandomBody(new Random(seed));
            using var stepped = new PooledBufferWriter();

            Assert.True(CompactKeySteps.TryWrite(body, stepped));
            Assert.True(stepped.WrittenCount <= body.Length);
            Assert.Equal(body, CompactKeySteps.Restore(stepped.WrittenSpan, body.Length));
        }),
        maxTest: 300);

    [Theory]
    [InlineData(new byte[] { 0x08, 0x01, 0x04, 0x01 })] // field 2, then field 1
    [InlineData(new byte[] { 0x04, 0x01, 0x04, 0x01 })] // field 1 twice
    [InlineData(new byte[] { 0x00, 0x01 })] // field 0
    [InlineData(new byte[] { 0x0B, 0x05, 0x61 })] // a string cut short
    [InlineData(new byte[] { 0x04, 0x80 })] // a varint cut short
    [InlineData(new byte[] { 0x84, 0x00, 0x01 })] // field 1 behind a two-byte key, which restoring would shorten
    public void BodiesThatAreNotAscendingWellFormedFields_AreNotStepped(byte[] body)
    {
        using var stepped = new PooledBufferWriter();

        Assert.False(CompactKeySteps.TryWrite(body, stepped));
    }

    [Theory]
    [MemberData(nameof(Compressions))]
    public void TheSeedsLargeRecord_IsStoredWithSteps_AndDecodesTheSame(CompactCompression compression)
    {
        var frame = CompactTestSupport.Encode(Large, "Large", LargeRecord, compression);

        Assert.Equal(0b1000, frame[1] & 0b1000);
        Assert.Equal(CompactTestSupport.Normalize(LargeRecord), CompactTestSupport.Decode(Large, frame));
        Assert.Equal(frame, CompactTestSupport.Encode(Large, "Large", CompactTestSupport.Decode(Large, frame), compression));
        Assert.Contains("(keys as steps)", CompactInspector.Describe(frame), StringComparison.Ordinal);
    }

    [Fact]
    public void Steps_MakeTheSeedsLargeRecordSmaller()
    {
        var body = LargeBody();
        var plain = CompressedLength(body);
        using var stepped = new PooledBufferWriter();
        Assert.True(CompactKeySteps.TryWrite(body, stepped));

        Assert.True(CompressedLength(stepped.WrittenSpan.ToArray()) < plain * 3 / 4);
    }

    [Fact]
    public void UncompressedFramesAndCollections_NeverCarrySteps()
    {
        Assert.Equal(0, CompactTestSupport.Encode(Large, "Large", LargeRecord)[1] & 0b1000);
        Assert.Equal(0, CompactTestSupport.Encode(Large, "Large", $"[{LargeRecord},{LargeRecord}]", CompactCompression.Brotli)[1] & 0b1000);
    }

    [Theory]
    [InlineData(0b1000)] // steps without compression
    [InlineData(0b1110)] // steps in a compressed collection
    [InlineData(0b10010)] // a flag no version defines
    public void FramesWithStepsWhereNoWriterPutsThem_AreRefusedAtTheFlags(int flags)
    {
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Large, [0x01, (byte)flags, 0x03, 0x04, 0x00]));

        Assert.Equal(CompactErrorCodes.Frame, error.Code);
        Assert.Equal(1, error.ByteOffset);
    }

    [Theory]
    [InlineData(new byte[] { 0x04, 0x00, 0x03 }, CompactErrorCodes.BadKey, 2)] // a step of 0 (field 1, then 1 again)
    [InlineData(new byte[] { 0x04, 0x00, 0xFC, 0xFF, 0xFF, 0xFF, 0x1F, 0x00 }, CompactErrorCodes.BadKey, 2)] // past int.MaxValue
    [InlineData(new byte[] { 0x07, 0x05, 0x61 }, CompactErrorCodes.BadLength, 1)] // a string cut short
    [InlineData(new byte[] { 0x04, 0x80 }, CompactErrorCodes.Truncated, 1)] // a varint cut short
    public void MalformedSteppedBodies_AreLocatedInTheDecompressedBody(byte[] stepped, string code, int offset)
    {
        var frame = SteppedFrame(stepped);

        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Large, frame));

        Assert.Equal(code, error.Code);
        Assert.Equal(offset, error.ByteOffset);
        Assert.Equal("of the deflate-decompressed body", error.OffsetScope);
    }

    [Fact]
    public void ErrorsInTheRestoredRecord_SayTheOffsetCountsTheRestoredBody()
    {
        // Field 1 is the schema's string field_01; a varint there is a changed type, found after the keys are restored.
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Large, SteppedFrame([0x04, 0x00])));

        Assert.Equal(CompactErrorCodes.TypeChanged, error.Code);
        Assert.Equal("of the deflate-decompressed body, its key steps restored to indices", error.OffsetScope);
    }

    [Fact]
    public void TheBodyLimit_HoldsForTheRestoredBody()
    {
        var frame = CompactTestSupport.Encode(Large, "Large", LargeRecord, CompactCompression.Deflate);
        var restoredLength = LargeBody().Length;

        Assert.Equal(CompactTestSupport.Normalize(LargeRecord), CompactTestSupport.Decode(Large, frame, new CompactLimits { MaxBodyLength = restoredLength }));
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Large, frame, new CompactLimits { MaxBodyLength = restoredLength - 1 }));
        Assert.Equal(CompactErrorCodes.Limit, error.Code);
    }

    [Fact]
    public void EveryTruncation_OfASteppedBody_IsRestoredOrRefused()
    {
        var body = LargeBody();
        using var stepped = new PooledBufferWriter();
        Assert.True(CompactKeySteps.TryWrite(body, stepped));
        var restoredCuts = 0;
        for (var length = 0; length < stepped.WrittenCount; length++)
        {
            try
            {
                var restored = CompactKeySteps.Restore(stepped.WrittenSpan[..length], 1 << 20);
                Assert.True(body.AsSpan().StartsWith(restored), "a cut at a field's end restores the fields before it");
                restoredCuts++;
            }
            catch (CompactFormatException)
            {
            }
        }

        // The cuts at each of the 50 fields' starts (the first: an empty body); every other cut is refused.
        Assert.Equal(50, restoredCuts);
    }

    [Fact]
    public void ARestoredBodyOverTheLimit_IsRefused()
    {
        // Steps of 1 to field 60: from field 32 on (32 << 2 = 128), each key grows from one byte to two as it is restored.
        var stepped = Enumerable.Range(0, 60).SelectMany(_ => new byte[] { 0x04, 0x00 }).ToArray();

        var error = Assert.Throws<CompactFormatException>(() => CompactKeySteps.Restore(stepped, stepped.Length + 5));

        Assert.Equal(CompactErrorCodes.Limit, error.Code);
    }

    // The record's body: its uncompressed frame after version, flags and the one-byte type id.
    private static byte[] LargeBody() => CompactTestSupport.Encode(Large, "Large", LargeRecord)[3..];

    private static byte[] SteppedFrame(byte[] stepped)
    {
        using var buffer = new MemoryStream();
        buffer.Write([0x01, (byte)CompactCompression.Deflate | 0b1000, 0x03]);
        using (var zlib = new ZLibStream(buffer, CompressionLevel.Optimal, leaveOpen: true))
        {
            zlib.Write(stepped);
        }

        return buffer.ToArray();
    }

    private static int CompressedLength(byte[] body)
    {
        using var buffer = new MemoryStream();
        using (var brotli = new BrotliStream(buffer, CompressionLevel.SmallestSize, leaveOpen: true))
        {
            brotli.Write(body);
        }

        return (int)buffer.Length;
    }

    private static byte[] RandomBody(Random random)
    {
        var writer = new PooledBufferWriter();
        using (writer)
        {
            var index = 0;
            for (var field = random.Next(0, 40); field > 0 && index < int.MaxValue - 1000; field--)
            {
                // Mostly small gaps, sometimes a jump to a many-byte key.
                index += random.Next(4) == 0 ? random.Next(1, int.MaxValue / 64) : random.Next(1, 4);
                var wireType = (WireType)random.Next(4);
                var key = ((ulong)(uint)index << 2) | (uint)wireType;
                writer.Advance(Varint.Write(writer.GetSpan(10), key));
                if (wireType == WireType.Varint)
                {
                    writer.Advance(Varint.Write(writer.GetSpan(10), (ulong)random.NextInt64() >> random.Next(64)));
                    continue;
                }

                var value = new byte[wireType switch { WireType.Fixed32 => 4, WireType.Fixed64 => 8, _ => random.Next(0, 200) }];
                random.NextBytes(value);
                if (wireType == WireType.LengthDelimited)
                {
                    writer.Advance(Varint.Write(writer.GetSpan(10), (ulong)value.Length));
                }

                value.CopyTo(writer.GetSpan(value.Length));
                writer.Advance(value.Length);
            }

            return writer.WrittenSpan.ToArray();
        }
    }
}

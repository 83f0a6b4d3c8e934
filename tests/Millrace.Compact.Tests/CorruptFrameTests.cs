using System.IO.Compression;
using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

/// <summary>Truncated, corrupted, trailing and hostile frames are refused with a located <see cref="CompactFormatException"/>.</summary>
public class CorruptFrameTests
{
    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse(CompactTestSupport.UserSchema);

    // Repetitive enough that every compression is smaller than the raw body, so the frame really is compressed.
    private static readonly string User = """{"id":42,"name":"Ann Example","active":true,"tags":[""" + string.Join(',', Enumerable.Repeat("\"tag value\"", 40)) + """],"metadata":{"k":"v","k2":"v2"},"owner":{"id":7,"name":"Ann Example"}}""";

    public static TheoryData<CompactCompression> Compressions => [CompactCompression.Deflate, CompactCompression.Brotli, CompactCompression.Zstd];

    [Theory]
    [MemberData(nameof(Compressions))]
    public void EveryTruncation_OfACompressedFrame_IsRefused(CompactCompression compression)
    {
        var frame = CompactTestSupport.Encode(Schema, "User", User, compression);
        Assert.Equal((byte)compression, frame[1] & 3); // bit 3 may say its keys are stepped (the smaller body is kept)
        for (var length = 0; length < frame.Length; length++)
        {
            var cut = frame.AsSpan(0, length).ToArray();
            Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, cut));
            Assert.Throws<CompactFormatException>(() => CompactInspector.Describe(cut));
        }
    }

    [Theory]
    [MemberData(nameof(Compressions))]
    public void TrailingBytes_AfterACompressedBody_AreRefused(CompactCompression compression)
    {
        var frame = CompactTestSupport.Encode(Schema, "User", User, compression);

        Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, [.. frame, 0x00]));
    }

    // The inspector listed the records and ignored what followed them, where a decode refuses it.
    [Fact]
    public void TrailingBytes_AfterACollectionsLastRecord_AreRefusedByDecodeAndInspect()
    {
        var frame = (byte[])[.. CompactTestSupport.Encode(Schema, "User", $"[{User},{User}]"), 0x00];

        var decode = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, frame));
        var inspect = Assert.Throws<CompactFormatException>(() => CompactInspector.Describe(frame));

        Assert.Equal(CompactErrorCodes.TrailingBytes, decode.Code);
        Assert.Equal(decode.Code, inspect.Code);
        Assert.Equal(decode.ByteOffset, inspect.ByteOffset);
    }

    [Theory]
    [MemberData(nameof(Compressions))]
    public void BitFlips_InACompressedFrame_NeverEscapeAsAnotherException(CompactCompression compression)
    {
        var frame = CompactTestSupport.Encode(Schema, "User", User, compression);
        var expected = CompactTestSupport.Decode(Schema, frame);
        var random = new Random(31337);
        for (var trial = 0; trial < 300; trial++)
        {
            var damaged = (byte[])frame.Clone();
            damaged[random.Next(damaged.Length)] ^= (byte)(1 << random.Next(8));
            try
            {
                var decoded = CompactTestSupport.Decode(Schema, damaged);
                if (compression != CompactCompression.Brotli)
                {
                    // Checksummed bodies: a flip that still decodes changed nothing the body says (e.g. the type id's
                    // varint to an equal value is impossible, so only header bits that do not matter).
                    Assert.Equal(expected, decoded);
                }
            }
            catch (CompactFormatException)
            {
            }
        }
    }

    [Fact]
    public void ZstdBodies_CarryAContentChecksum()
    {
        var frame = CompactTestSupport.Encode(Schema, "User", User, CompactCompression.Zstd);

        // The zstd frame starts after version, flags and the one-byte type id; its descriptor's bit 2 is the checksum flag.
        Assert.NotEqual(0, frame[3 + 4] & 0b100);
    }

    [Theory]
    [InlineData(new byte[] { 0x01, 0x02, 0x00, 0xFD })]
    [InlineData(new byte[] { 0x01, 0x01, 0x00, 0x78, 0xF9, 0x00, 0x00, 0x00, 0x00 })]
    public void CraftedFrames_FromTheFuzzRun_AreCompactErrors(byte[] frame)
    {
        Assert.Throws<CompactFormatException>(() => CompactInspector.Describe(frame));
        Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, frame));
    }

    [Fact]
    public void ZstdFrameDeclaringAHugeSize_AllocatesOnlyWhatItHolds()
    {
        byte[] frame = [0x01, 0x03, 0x01, 0x28, 0xB5, 0x2F, 0xFD, 0xA0, 0x00, 0x00, 0x00, 0x04, 0x09, 0x00, 0x00, 0x41];
        var before = GC.GetAllocatedBytesForCurrentThread();

        Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, frame));
        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 8 << 20, "the declared content size was trusted");
    }

    [Fact]
    public void Inspector_OnABodyOfMillionsOfTinyFields_StopsAtTheFieldLimit()
    {
        // 8 MiB of two-byte fields (key 1, varint 0) compresses to a few kilobytes of Brotli.
        var body = new byte[8 << 20];
        for (var i = 0; i < body.Length; i += 2)
        {
            body[i] = 0x04;
        }

        using var buffer = new MemoryStream();
        buffer.Write([0x01, 0x02, 0x01]);
        using (var brotli = new BrotliStream(buffer, CompressionLevel.Optimal, leaveOpen: true))
        {
            brotli.Write(body);
        }

        var frame = buffer.ToArray();
        Assert.True(frame.Length < 64 * 1024);
        var before = GC.GetAllocatedBytesForCurrentThread();

        var error = Assert.Throws<CompactFormatException>(() => CompactInspector.Describe(frame, new CompactLimits { MaxFieldCount = 100_000, MaxDescriptionLength = 64 << 20 }));

        Assert.Contains("100000 fields", error.Message, StringComparison.Ordinal);
        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 200L << 20, "the inspector's work grew past its limit");
    }

    [Fact]
    public void BodyErrors_SayTheOffsetCountsTheBody()
    {
        var error = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, [1, 0, 1, 0x0B, 0x02, 0xC3, 0x28]));
        Assert.Contains("of the body, which starts at byte 3 of the frame", error.Message, StringComparison.Ordinal);

        var frame = CompactTestSupport.Encode(Schema, "User", User, CompactCompression.Zstd);
        using var body = new PooledBufferWriter();
        var outcome = Millrace.Compression.BoundedCompression.TryDecompress(frame.AsSpan(3), Millrace.Compression.CompressionCodec.Zstd, body, 1 << 20);
        Assert.True(outcome.IsDone);
        var damaged = body.WrittenSpan.ToArray();
        damaged[0] = 0x00;
        using var recompressed = new PooledBufferWriter();
        CompactFrame.Write(recompressed, 1, false, damaged, CompactCompression.Zstd);
        var scoped = Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, recompressed.WrittenSpan.ToArray()));
        Assert.Contains("of the zstd-decompressed body", scoped.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Limits_AreValidatedWhereTheyAreUsed_EveryProblemAtOnce()
    {
        var invalid = new CompactLimits { MaxDepth = CompactLimitsConstants.MaxAllowedDepth + 1, MaxBodyLength = -1, MaxFieldCount = 0, MaxDescriptionLength = 10 };
        var error = Assert.Throws<ArgumentException>(invalid.Validate);
        Assert.Equal(
            "Invalid compact limits:\n- MaxDepth must be from 1 to 1024 (was 1025).\n- MaxBodyLength must be at least 0 (was -1).\n- MaxFieldCount must be at least 1 (was 0).\n- MaxDescriptionLength must be at least 1024 (was 10).",
            error.Message);
        Assert.Throws<ArgumentException>(new CompactLimits { MaxDepth = 0 }.Validate);
        Assert.Throws<ArgumentException>(() => CompactInspector.Describe(new byte[] { 1, 0, 1 }, invalid));
        Assert.Throws<ArgumentException>(() => CompactFrame.Read(new byte[] { 1, 0, 1 }, invalid, out _, out _, out _));
        Assert.Equal(64, CompactLimits.Default.MaxDepth);
        Assert.Equal(1_000_000, CompactLimits.Default.MaxCollectionCount);
        Assert.Equal(16 << 20, CompactLimits.Default.MaxStringLength);
        Assert.Equal(64 << 20, CompactLimits.Default.MaxBodyLength);
        Assert.Equal(1_000_000, CompactLimits.Default.MaxFieldCount);
    }

    [Fact]
    public void UncompressedBody_OverTheLimit_IsRefused()
    {
        var frame = CompactTestSupport.Encode(Schema, "User", User);

        Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, frame, new CompactLimits { MaxBodyLength = 10 }));
    }
}

using System.Buffers;

namespace Millrace.Core.Tests;

public class VarintTests
{
    // Golden vectors from the Protocol Buffers encoding guide and hand computation.
    [Theory]
    [InlineData(0UL, new byte[] { 0x00 })]
    [InlineData(1UL, new byte[] { 0x01 })]
    [InlineData(127UL, new byte[] { 0x7F })]
    [InlineData(128UL, new byte[] { 0x80, 0x01 })]
    [InlineData(150UL, new byte[] { 0x96, 0x01 })]
    [InlineData(300UL, new byte[] { 0xAC, 0x02 })]
    [InlineData(16_384UL, new byte[] { 0x80, 0x80, 0x01 })]
    [InlineData(uint.MaxValue, new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x0F })]
    [InlineData(ulong.MaxValue, new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 })]
    public void Write_ProducesGoldenBytes(ulong value, byte[] expected)
    {
        Span<byte> buffer = stackalloc byte[Varint.MaxLength64];
        var written = Varint.Write(buffer, value);
        Assert.Equal(expected, buffer[..written].ToArray());
        Assert.Equal(expected.Length, Varint.GetByteCount(value));
        Assert.Equal(OperationStatus.Done, Varint.TryRead(expected, out ulong read, out var consumed));
        Assert.Equal(value, read);
        Assert.Equal(expected.Length, consumed);
    }

    [Fact]
    public void TryRead_TruncatedInputNeedsMoreData()
    {
        Assert.Equal(OperationStatus.NeedMoreData, Varint.TryRead([], out ulong _, out _));
        Assert.Equal(OperationStatus.NeedMoreData, Varint.TryRead([0x80, 0x80], out ulong _, out _));
        Assert.Equal(OperationStatus.NeedMoreData, Varint.TryRead([0xFF, 0xFF, 0xFF, 0xFF], out uint _, out _));
    }

    [Fact]
    public void TryRead_OverlongOrOverflowingInputIsInvalid()
    {
        byte[] elevenBytes = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
        Assert.Equal(OperationStatus.InvalidData, Varint.TryRead(elevenBytes, out ulong _, out var consumed));
        Assert.Equal(0, consumed);
        Assert.Equal(OperationStatus.InvalidData, Varint.TryRead([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], out ulong _, out _));
        Assert.Equal(OperationStatus.InvalidData, Varint.TryRead([0xFF, 0xFF, 0xFF, 0xFF, 0x1F], out uint _, out _));
        Assert.Equal(OperationStatus.InvalidData, Varint.TryRead([0x80, 0x80, 0x80, 0x80, 0x80, 0x00], out uint _, out _));
    }

    [Fact]
    public void TryWrite_TooSmallDestinationWritesNothing()
    {
        Span<byte> buffer = stackalloc byte[1];
        Assert.False(Varint.TryWrite(buffer, 300, out var written));
        Assert.Equal(0, written);
        Assert.Throws<ArgumentException>(() => Varint.Write(new byte[1], 300));
    }

    [Fact]
    public void Write_ToBufferWriterAdvances()
    {
        using var writer = new PooledBufferWriter(1);
        Varint.Write(writer, 300);
        Varint.Write(writer, 1);
        Assert.Equal(new byte[] { 0xAC, 0x02, 0x01 }, writer.ToArray());
    }

    [Fact]
    public void RoundTrip64_RandomValues() => PropertyCheck.Run(Prop.ForAll<ulong>(value =>
    {
        var buffer = new byte[Varint.MaxLength64];
        var written = Varint.Write(buffer, value);
        return Varint.TryRead(buffer.AsSpan(0, written), out ulong read, out var consumed) == OperationStatus.Done
            && read == value && consumed == written;
    }), maxTest: 2000);

    [Fact]
    public void RoundTrip32_RandomValues() => PropertyCheck.Run(Prop.ForAll<uint>(value =>
    {
        var buffer = new byte[Varint.MaxLength32];
        var written = Varint.Write(buffer, value);
        return Varint.TryRead(buffer.AsSpan(0, written), out uint read, out var consumed) == OperationStatus.Done
            && read == value && consumed == written;
    }), maxTest: 2000);
}

public class ZigZagTests
{
    [Theory]
    [InlineData(0, 0U)]
    [InlineData(-1, 1U)]
    [InlineData(1, 2U)]
    [InlineData(-2, 3U)]
    [InlineData(2147483647, 4294967294U)]
    [InlineData(-2147483648, 4294967295U)]
    public void Encode32_MatchesSpec(int value, uint code)
    {
        Assert.Equal(code, ZigZag.Encode(value));
        Assert.Equal(value, ZigZag.Decode(code));
    }

    [Fact]
    public void Encode64_Extremes()
    {
        Assert.Equal(ulong.MaxValue, ZigZag.Encode(long.MinValue));
        Assert.Equal(ulong.MaxValue - 1, ZigZag.Encode(long.MaxValue));
        Assert.Equal(long.MinValue, ZigZag.Decode(ulong.MaxValue));
    }

    [Fact]
    public void RoundTrip64_RandomValues() =>
        PropertyCheck.Run(Prop.ForAll<long>(value => ZigZag.Decode(ZigZag.Encode(value)) == value), maxTest: 2000);

    [Fact]
    public void RoundTrip32_RandomValues() =>
        PropertyCheck.Run(Prop.ForAll<int>(value => ZigZag.Decode(ZigZag.Encode(value)) == value), maxTest: 2000);
}

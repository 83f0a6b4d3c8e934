using System.Buffers;
using System.IO.Compression;
using Millrace.Compression;

namespace Millrace.Core.Tests;

/// <summary>Bytes src/Millrace.Core/README.md names, checked here where no other test pins them.</summary>
public class ReadmeByteClaimsTests
{
    [Fact]
    public void ZigZagOfMinus300_IsTheVarintD704()
    {
        Span<byte> bytes = stackalloc byte[10];
        var length = Varint.Write(bytes, ZigZag.Encode(-300L));
        Assert.Equal([0xD7, 0x04], bytes[..length].ToArray());
    }

    [Fact]
    public void NonMinimalVarint_IsRead()
    {
        Assert.Equal(OperationStatus.Done, Varint.TryRead([0x80, 0x00], out ulong value, out var used));
        Assert.Equal((0UL, 2), (value, used));
    }

    [Fact]
    public void ZlibWithAPresetDictionary_IsRefused()
    {
        using var output = new PooledBufferWriter();
        BoundedCompression.Compress("a stream that needs no dictionary"u8, CompressionCodec.Zlib, output, CompressionLevel.Fastest);
        var plain = output.ToArray();

        // The same deflate data behind a header whose FDICT bit is set (78 20 checks: 0x7820 is a multiple of 31), with a
        // dictionary id: a reader without that dictionary cannot know the stream's first bytes.
        byte[] withDictionary = [0x78, 0x20, 0x12, 0x34, 0x56, 0x78, .. plain.AsSpan(2)];
        using var inflated = new PooledBufferWriter();
        Assert.Equal(DecompressionStatus.Corrupt, BoundedCompression.TryDecompress(withDictionary, CompressionCodec.Zlib, inflated, 1 << 20).Status);
    }
}

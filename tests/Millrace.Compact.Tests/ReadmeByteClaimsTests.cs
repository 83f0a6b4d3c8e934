using System.Text.Json;
using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

/// <summary>Bytes src/Millrace.Compact/README.md names, checked here where no other test pins them.</summary>
public class ReadmeByteClaimsTests
{
    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse(CompactTestSupport.UserSchema);

    [Fact]
    public void TheExampleFrame_IsFifteenBytes()
    {
        using var json = JsonDocument.Parse("""{"id":42,"name":"Ann","tags":["a"]}""");
        Assert.Equal(15, CompactJson.Encode(Schema, "User", json.RootElement, CompactCompression.Auto).Length);
    }

    // The checksums the README says each compression carries: a body whose content no longer matches its checksum is
    // refused (one changed byte in the checksum itself is the smallest such damage).
    [Theory]
    [InlineData(CompactCompression.Zstd)]
    [InlineData(CompactCompression.Deflate)]
    public void ABodyWhoseChecksumFails_IsRefused(CompactCompression compression)
    {
        var names = string.Join(",", Enumerable.Range(0, 40).Select(i => $"\"tag {i}\""));
        using var json = JsonDocument.Parse($$"""{"id":42,"name":"Ann","tags":[{{names}}]}""");
        var frame = CompactJson.Encode(Schema, "User", json.RootElement, compression);
        Assert.Equal((int)compression, frame[1] & 0b11);
        frame[^1] ^= 0x01;

        Assert.Equal(CompactErrorCodes.Compression, Assert.Throws<CompactFormatException>(() => CompactTestSupport.Decode(Schema, frame)).Code);
    }
}

using Millrace.Compact.Schema;

namespace Millrace.Compact.Tests;

public class GoldenBytesTests
{
    private static readonly CompactSchemaSet Schema = CompactSchemaSet.Parse(CompactTestSupport.UserSchema);

    [Theory]
    [InlineData("""{"id":1,"name":"Ann"}""", "010001" + "0402" + "0B03416E6E")]
    [InlineData("""{"id":300,"active":true,"tags":["a","bc"]}""", "010001" + "04D804" + "1401" + "1F06020161026263")]
    [InlineData("""{"id":1,"owner":{"id":2}}""", "010001" + "0402" + "23020404")]
    [InlineData("""{"metadata":{"k":"v"}}""", "010001" + "270501016B0176")]
    [InlineData("""[{"id":1},{"id":2}]""", "010401" + "02" + "020402" + "020404")]
    [InlineData("""{"id":null,"name":"Ann"}""", "010001" + "0B03416E6E")]
    public void SpecExamples_EncodeToTheirBytesAndBack(string json, string hex)
    {
        var bytes = CompactTestSupport.Encode(Schema, "User", json);
        Assert.Equal(hex, Convert.ToHexString(bytes));
        var expected = CompactTestSupport.Normalize(json.Replace("\"id\":null,", string.Empty, StringComparison.Ordinal));
        Assert.Equal(expected, CompactTestSupport.Decode(Schema, bytes));
    }

    [Fact]
    public void SparseUser_IsSmallerThanTheSeedEncodersWithoutCompression()
    {
        var bytes = CompactTestSupport.Encode(Schema, "User", """{"id":42,"name":"Alice Johnson"}""");
        Assert.True(bytes.Length < 34, $"{bytes.Length} bytes");
    }
}

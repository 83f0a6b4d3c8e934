using System.Text;
using Millrace.Cli.Formats;

namespace Millrace.Cli.Tests;

public sealed class JsonValueOffsetsTests
{
    private const string Json = """{"a":1, "b":{"c":[10, {"d":"x"}, [5, 6]]}, "e.f":2}""";

    [Theory]
    [InlineData("", "{\"a\"")]
    [InlineData("a", "1,")]
    [InlineData("b.c", "[10")]
    [InlineData("b.c[1].d", "\"x\"")]
    [InlineData("b.c[2][1]", "6]")]
    public void Find_GivesTheValuesFirstByte(string path, string expectedAt)
    {
        Assert.Equal(Json.IndexOf(expectedAt, StringComparison.Ordinal), JsonValueOffsets.Find(Encoding.UTF8.GetBytes(Json), path));
    }

    // A path that leads nowhere, or that a dotted name makes ambiguous, gives no offset rather than a wrong one.
    [Theory]
    [InlineData("z")]
    [InlineData("b.c[9]")]
    [InlineData("a.b")]
    [InlineData("b.c[x]")]
    [InlineData("e.f")]
    public void Find_OfAPathThatLeadsNowhere_IsNull(string path)
    {
        Assert.Null(JsonValueOffsets.Find(Encoding.UTF8.GetBytes(Json), path));
    }
}

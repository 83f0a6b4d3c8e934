using Millrace.Json.Streaming;

namespace Millrace.Json.Tests.Streaming;

public class JsonStreamOptionsTests
{
    [Fact]
    public void Defaults_AreDocumentedValues()
    {
        var options = new JsonStreamOptions();
        Assert.Equal(JsonStreamFormat.Array, options.Format);
        Assert.Equal("$", options.Path);
        Assert.Equal(16 * 1024 * 1024, options.MaxItemSize);
        Assert.Equal(64, options.MaxDepth);
        Assert.Equal(16 * 1024, options.BufferSize);
        Assert.False(options.SkipInvalidLines);
        Assert.Equal(1, options.BindingWorkers);
        Assert.Equal(JsonStreamConstants.BindingWorkers, options.BindingWorkers);
        Assert.False(options.IsReadOnly);
        Assert.True(JsonStreamOptions.Default.IsReadOnly);
        Assert.Equal(JsonStreamConstants.MaxItemSize, options.MaxItemSize);
        Assert.Equal(JsonStreamConstants.MaxDepth, options.MaxDepth);
        Assert.Equal(JsonStreamConstants.BufferSize, options.BufferSize);
    }

    [Theory]
    [InlineData("data")]
    [InlineData("$data")]
    [InlineData("$.")]
    [InlineData("$.a..b")]
    [InlineData("$.a[0]")]
    public void Path_RejectsUnsupportedSyntax(string path) =>
        Assert.Throws<ArgumentException>(() => new JsonStreamOptions { Path = path });

    [Fact]
    public void Limits_RejectOutOfRangeValues()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonStreamOptions { MaxItemSize = 0 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonStreamOptions { MaxDepth = 0 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonStreamOptions { BufferSize = 1 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonStreamOptions { Format = (JsonStreamFormat)9 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonStreamOptions { BindingWorkers = 0 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonStreamOptions { BindingWorkers = JsonStreamConstants.MaxBindingWorkers + 1 });
    }

    [Fact]
    public async Task Options_FreezeOnFirstUse()
    {
        var options = new JsonStreamOptions { Path = "$.items" };
        await foreach (var unused in JsonItems.ReadAsync(new MemoryStream("{\"items\":[]}"u8.ToArray()), TestJsonContext.Default.Int32, options))
        {
        }

        Assert.True(options.IsReadOnly);
        Assert.Throws<InvalidOperationException>(() => options.MaxDepth = 3);
    }
}

namespace Millrace.Cli.Tests;

public class JsonCommandsTests
{
    [Fact]
    public async Task Head_PrintsFirstNItemsOnePerLine()
    {
        var run = await CliRun.Invoke("json", "head", CliRun.Sample("records.json"), "-n", "3");
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        var lines = run.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(3, lines.Length);
        Assert.StartsWith("""{"id":1,"name":"user001","city":"Tromsø",""", lines[0], StringComparison.Ordinal);
        Assert.Empty(run.Error);
    }

    [Fact]
    public async Task Head_NestedPathAndStdin()
    {
        var page = await File.ReadAllTextAsync(CliRun.Sample("page.json"));
        var run = await CliRun.InvokeWithInput(page, "json", "head", "-", "--path", "$.data.items", "-n", "2");
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(2, run.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
    }

    [Fact]
    public async Task Head_StopsBeforeAMalformedTail()
    {
        var run = await CliRun.InvokeWithInput("[1,2,oops", "json", "head", "-", "-n", "2");
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal("1\n2\n", run.Output);
    }

    [Theory]
    [InlineData("records.json", false, "25")]
    [InlineData("records.ndjson", true, "25")]
    public async Task Count_CountsItems(string sample, bool ndjson, string expected)
    {
        var args = new List<string> { "json", "count", CliRun.Sample(sample) };
        if (ndjson)
        {
            args.Add("--ndjson");
        }

        var run = await CliRun.Invoke([.. args]);
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(expected, run.Output.Trim());
    }

    [Fact]
    public async Task Count_BadInput_ExitsOneWithFileOffsetAndReason()
    {
        var run = await CliRun.Invoke("json", "count", CliRun.Sample("invalid.json"));
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("invalid.json: json.syntax:", run.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 401", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Validate_ListsEveryInvalidLineAndExitsOne()
    {
        var run = await CliRun.InvokeWithInput("{\"a\":1}\n{bad}\n[1,\n{\"a\":2}\n", "json", "validate", "-", "--ndjson");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("millrace: -: json.syntax: Line 2", run.Error, StringComparison.Ordinal);
        Assert.Contains("item 1, byte offset 9", run.Error, StringComparison.Ordinal);
        Assert.Contains("millrace: -: json.truncated: Line 3", run.Error, StringComparison.Ordinal);
        Assert.Equal(2, run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.Contains("-: 2 valid, 2 invalid", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Validate_ValidFile_ExitsZero()
    {
        var run = await CliRun.Invoke("json", "validate", CliRun.Sample("records.json"));
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Contains("25 valid, 0 invalid", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task FromBase64_PrintsDecodedJson()
    {
        var run = await CliRun.InvokeWithInput(Convert.ToBase64String("""{"a":[1,2]}"""u8), "json", "from-base64", "-");
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal("""{"a":[1,2]}""", run.Output);
    }

    [Fact]
    public async Task FromBase64_Malformed_ExitsOneWithOffset()
    {
        var run = await CliRun.InvokeWithInput("eyJh*Ijox", "json", "from-base64", "-");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("json.base64", run.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 4", run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task FromBase64_NotJson_ExitsOne()
    {
        var run = await CliRun.InvokeWithInput(Convert.ToBase64String("not json"u8), "json", "from-base64", "-");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("json.syntax", run.Error, StringComparison.Ordinal);
    }

    // The decoded text's syntax error came in System.Text.Json's words (LineNumber: 1 | BytePositionInLine: 2), at the
    // end of the last good token rather than at the error.
    [Fact]
    public async Task FromBase64_NotJson_IsLocatedInTheDecodedText()
    {
        var run = await CliRun.InvokeWithInput(Convert.ToBase64String("[1,\n2,,3]"u8), "json", "from-base64", "-");

        Assert.Contains("(line 2, column 3) (byte offset 6 of the decoded text)", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("LineNumber", run.Error, StringComparison.Ordinal);
    }

    // Bytes that are not UTF-8 were printed as they were; empty text gave System.Text.Json's "isFinalBlock" message.
    [Theory]
    [InlineData(new byte[] { 0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D }, "json.encoding: The JSON is not UTF-8 here: a string or name holds bytes UTF-8 does not allow. (byte offset 6 of the decoded text)")]
    [InlineData(new byte[] { 0x20, 0x0A }, "holds no JSON value")]
    [InlineData(new byte[0], "holds no JSON value")]
    public async Task FromBase64_TextThatIsNotUtf8OrEmpty_IsRefused(byte[] decoded, string expected)
    {
        var run = await CliRun.InvokeWithInput(Convert.ToBase64String(decoded), "json", "from-base64", "-");

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
        Assert.Equal(string.Empty, run.Output);
    }

    [Fact]
    public async Task MissingFile_ExitsOneWithoutStackTrace()
    {
        var run = await CliRun.Invoke("json", "count", "does-not-exist.json");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("does-not-exist.json", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("json", "head")]
    [InlineData("json", "head", "x.json", "-n", "many")]
    [InlineData("json", "head", "x.json", "-n", "-1")]
    [InlineData("nosuchverb")]
    [InlineData("json", "count", "x.json", "--unknown")]
    public async Task UsageErrors_ExitTwo(params string[] args)
    {
        var run = await CliRun.Invoke(args);
        Assert.Equal(ExitCodes.Usage, run.ExitCode);
        Assert.Contains("millrace --help", run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task BadPath_IsAUsageError()
    {
        var run = await CliRun.InvokeWithInput("[]", "json", "count", "-", "--path", "data");
        Assert.Equal(ExitCodes.Usage, run.ExitCode);
        Assert.Contains("--path", run.Error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--help")]
    [InlineData("--version")]
    public async Task HelpAndVersion_ExitZero(string flag)
    {
        var run = await CliRun.Invoke(flag);
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.NotEmpty(run.Output);
    }
}

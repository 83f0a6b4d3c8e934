namespace Millrace.Cli.Tests;

public sealed class CompactCommandsTests : IDisposable
{
    private readonly DirectoryInfo _temp = Directory.CreateTempSubdirectory("millrace-compact-cli-");

    public void Dispose() => _temp.Delete(recursive: true);

    [Theory]
    [InlineData("none")]
    [InlineData("deflate")]
    [InlineData("brotli")]
    [InlineData("auto")]
    public async Task EncodeThenDecode_GivesTheJsonBack(string compression)
    {
        var frame = Path.Combine(_temp.FullName, "users.bin");
        var encode = await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", CliRun.Sample("users.json"), frame, "--compress", compression);
        Assert.True(encode.ExitCode == ExitCodes.Success, encode.Error);
        var decode = await CliRun.Invoke("compact", "decode", "--schema", CliRun.Sample("user.schema.json"), frame);
        Assert.Equal(ExitCodes.Success, decode.ExitCode);
        Assert.Contains("\"email\": \"alice@example.com\"", decode.Output, StringComparison.Ordinal);
        Assert.Contains("\"created_at\": \"2024-01-15T10:30:00+00:00\"", decode.Output, StringComparison.Ordinal);
        Assert.Contains("\"owner\": {", decode.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Inspect_DumpsFieldsWithoutASchema()
    {
        var frame = Path.Combine(_temp.FullName, "users.bin");
        await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", CliRun.Sample("users.json"), frame);
        var run = await CliRun.Invoke("compact", "inspect", frame);
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.StartsWith("frame: version 1, type 1, collection, compression none", run.Output, StringComparison.Ordinal);
        Assert.Contains("2 LengthDelimited: \"Bob\"", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Size_ComparesEncodings()
    {
        var run = await CliRun.Invoke("compact", "size", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", CliRun.Sample("users.json"));
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        var rows = run.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(["json", "json+gzip", "compact", "compact+deflate", "compact+brotli", "compact+zstd", "compact+auto"], rows.Select(r => r.Split(' ')[0]));
    }

    [Fact]
    public async Task BadInput_ExitsOneWithOffsetAndPath()
    {
        var frame = Path.Combine(_temp.FullName, "bad.bin");
        await File.WriteAllBytesAsync(frame, [1, 0, 1, 0x0B, 0x09, 0x41]);
        var run = await CliRun.Invoke("compact", "decode", "--schema", CliRun.Sample("user.schema.json"), frame);
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("compact.bad-length", run.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 1", run.Error, StringComparison.Ordinal);
        Assert.Contains("path name", run.Error, StringComparison.Ordinal);

        var missingType = await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "Nope", CliRun.Sample("users.json"), frame);
        Assert.Equal(ExitCodes.BadInput, missingType.ExitCode);
        var usage = await CliRun.Invoke("compact", "encode", CliRun.Sample("users.json"), frame);
        Assert.Equal(ExitCodes.Usage, usage.ExitCode);
    }
}

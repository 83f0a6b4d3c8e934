namespace Millrace.Cli.Tests;

/// <summary>
/// A JSON file with bytes that are not UTF-8 in a string gets one answer from every verb: the json.encoding error at the
/// first such byte. Before, validate said "2 valid", head printed U+FFFD in their place, and compact encode died with a
/// stack trace (exit 134).
/// </summary>
public sealed class InvalidUtf8Tests : IDisposable
{
    // [{"id":1,"name":"ab\xFE\xFFcd"},{"id":2,"name":"ok"}]: the first bad byte is at offset 19.
    private static readonly byte[] Bytes = [.. """[{"id":1,"name":"ab"""u8, 0xFE, 0xFF, .. """cd"},{"id":2,"name":"ok"}]"""u8];

    private readonly DirectoryInfo _temp = Directory.CreateTempSubdirectory("millrace-utf8-");

    public InvalidUtf8Tests() => File.WriteAllBytes(Input, Bytes);

    private string Input => Path.Combine(_temp.FullName, "bad.json");

    public void Dispose() => _temp.Delete(recursive: true);

    [Fact]
    public async Task JsonVerbs_ReportTheItem_AtTheFirstBadByte()
    {
        var validate = await CliRun.Invoke("json", "validate", Input);
        Assert.Equal(ExitCodes.BadInput, validate.ExitCode);
        Assert.Contains("json.encoding", validate.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 19", validate.Error, StringComparison.Ordinal);
        Assert.Contains("1 valid, 1 invalid", validate.Output + validate.Error, StringComparison.Ordinal);

        var head = await CliRun.Invoke("json", "head", Input, "-n", "2");
        Assert.DoesNotContain("\uFFFD", head.Output, StringComparison.Ordinal);
        Assert.Contains("byte offset 19", head.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task CompactEncodeAndBatchConvert_RefuseTheFile_AtTheFirstBadByte()
    {
        var frame = Path.Combine(_temp.FullName, "bad.mrc");
        var encode = await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", Input, frame);
        Assert.Equal(ExitCodes.BadInput, encode.ExitCode);
        Assert.Contains("json.encoding", encode.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 19", encode.Error, StringComparison.Ordinal);
        Assert.Single(encode.Error.TrimEnd('\n').Split('\n'));
        Assert.False(File.Exists(frame));

        var output = Path.Combine(_temp.FullName, "out");
        var batch = await CliRun.Invoke("batch", "convert", _temp.FullName, output, "--to", "json");
        Assert.Equal(ExitCodes.BadInput, batch.ExitCode);
        Assert.Contains("json.encoding", batch.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 19", batch.Error, StringComparison.Ordinal);
    }
}

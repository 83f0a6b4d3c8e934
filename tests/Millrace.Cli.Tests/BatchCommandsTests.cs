using Millrace.Cli.Batch;
using Millrace.Parallel.Progress;
using System.Text;
using System.Text.Json;

namespace Millrace.Cli.Tests;

public sealed class BatchCommandsTests : IDisposable
{
    private readonly DirectoryInfo _temp = Directory.CreateTempSubdirectory("millrace-batch-cli-");

    public void Dispose() => _temp.Delete(recursive: true);

    private string In => Path.Combine(_temp.FullName, "in");

    private string Out => Path.Combine(_temp.FullName, "out");

    private void Add(string relative, string sample)
    {
        var path = Path.Combine(In, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.Copy(CliRun.Sample(sample), path);
    }

    private void AddBytes(string relative, byte[] bytes)
    {
        var path = Path.Combine(In, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, bytes);
    }

    [Fact]
    public async Task Convert_ToSnbt_ConvertsTheGoodFiles_ListsTheBadOneAndExits1()
    {
        Add("bigtest.nbt", "bigtest.nbt");
        Add("sub/hello_world.nbt", "hello_world.nbt");
        AddBytes("bad.nbt", [10, 0, 3, (byte)'a', (byte)'b', (byte)'c', 99, 0, 0]);
        Add("records.json", "records.json");
        AddBytes("notes.txt", "not a data file"u8.ToArray());

        var run = await CliRun.Invoke("batch", "convert", In, Out, "--to", "snbt", "--parallel", "2");

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.StartsWith("{\n    longTest: 9223372036854775807L,", await File.ReadAllTextAsync(Path.Combine(Out, "bigtest.snbt")), StringComparison.Ordinal);
        Assert.Contains("name: \"Bananrama\"", await File.ReadAllTextAsync(Path.Combine(Out, "sub", "hello_world.snbt")), StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(Out, "bad.snbt")));
        Assert.Empty(Directory.GetFiles(Out, "*.tmp", SearchOption.AllDirectories));
        Assert.Contains($"millrace: {Path.Combine(In, "bad.nbt")}: nbt.unknown-tag:", run.Error, StringComparison.Ordinal);
        Assert.Contains("converted 2 of 3 files to snbt", run.Output, StringComparison.Ordinal);
        Assert.Contains("1 failed; 1 skipped (no conversion to snbt); 1 other files ignored", run.Output, StringComparison.Ordinal);
        Assert.Contains("skipped records.json: json does not convert to snbt", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Convert_NbtToJson_WritesPlainJsonAndExits0()
    {
        Add("hello_world.nbt", "hello_world.nbt");
        Add("bigtest.nbt", "bigtest.nbt");

        var run = await CliRun.Invoke("batch", "convert", In, Out, "--to", "json", "--retries", "2", "--rate", "1000/s");

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        using var hello = JsonDocument.Parse(await File.ReadAllBytesAsync(Path.Combine(Out, "hello_world.json")));
        Assert.Equal("Bananrama", hello.RootElement.GetProperty("name").GetString());
        using var big = JsonDocument.Parse(await File.ReadAllBytesAsync(Path.Combine(Out, "bigtest.json")));
        Assert.Equal(9223372036854775807L, big.RootElement.GetProperty("longTest").GetInt64());
        Assert.Equal(1000, big.RootElement.GetProperty("byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))").GetArrayLength());
    }

    [Fact]
    public async Task Convert_SnbtToNbtAndBack_RoundTrips()
    {
        Add("hello_world.nbt", "hello_world.nbt");
        var snbt = Path.Combine(_temp.FullName, "snbt");
        var nbt = Path.Combine(_temp.FullName, "nbt");

        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("batch", "convert", In, snbt, "--to", "snbt")).ExitCode);
        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("batch", "convert", snbt, nbt, "--to", "nbt")).ExitCode);

        var original = await CliRun.Invoke("nbt", "show", Path.Combine(In, "hello_world.nbt"));
        var back = await CliRun.Invoke("nbt", "show", Path.Combine(nbt, "hello_world.nbt"));
        Assert.Equal(original.Output, back.Output);
    }

    [Fact]
    public async Task Convert_JsonToCompactAndBack_KeepsTheValues()
    {
        Add("users.json", "users.json");
        var frames = Path.Combine(_temp.FullName, "frames");
        var json = Path.Combine(_temp.FullName, "json");
        var schema = CliRun.Sample("user.schema.json");

        var encode = await CliRun.Invoke("batch", "convert", In, frames, "--to", "compact", "--schema", schema, "--type", "User");
        Assert.Equal(ExitCodes.Success, encode.ExitCode);
        Assert.True(File.Exists(Path.Combine(frames, "users.mrc")));
        var decode = await CliRun.Invoke("batch", "convert", frames, json, "--to", "json", "--schema", schema);
        Assert.Equal(ExitCodes.Success, decode.ExitCode);

        using var decoded = JsonDocument.Parse(await File.ReadAllBytesAsync(Path.Combine(json, "users.json")));
        Assert.Equal(3, decoded.RootElement.GetArrayLength());
        Assert.Equal("Alice Johnson", decoded.RootElement[0].GetProperty("name").GetString());
        Assert.Equal("Bob", decoded.RootElement[1].GetProperty("name").GetString());
    }

    [Fact]
    public async Task Convert_CompactWithoutSchema_FailsThatFileWithItsReason()
    {
        AddBytes("frame.mrc", [1, 2, 3]);
        var run = await CliRun.Invoke("batch", "convert", In, Out, "--to", "json");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("Compact frames need --schema.", run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Convert_TwoInputsWithTheSameOutput_FailsTheSecondInsteadOfOverwriting()
    {
        Add("a.nbt", "hello_world.nbt");
        Add("a.dat", "bigtest.nbt");
        var run = await CliRun.Invoke("batch", "convert", In, Out, "--to", "snbt");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("is also the output of", run.Error, StringComparison.Ordinal);
        Assert.Contains("converted 1 of 2 files", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Convert_RedirectedProgress_IsPlainLines_TerminalProgress_IsABar()
    {
        Add("hello_world.nbt", "hello_world.nbt");

        var plain = await CliRun.Invoke("batch", "convert", In, Out, "--to", "snbt");
        Assert.Contains("progress: 1/1 (100%)", plain.Error, StringComparison.Ordinal);
        Assert.DoesNotContain('\r', plain.Error);

        var error = new StringWriter();
        var console = new CliConsole(new MemoryStream(), new MemoryStream(), error) { IsTerminal = true };
        Assert.Equal(ExitCodes.Success, await MillraceCli.RunAsync(["batch", "convert", In, Out, "--to", "snbt"], console));
        Assert.Contains("converting", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("100%", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("files/s", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("\u001b[", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task ClusterProgress_ShowsEachSilosShare_WhileTheBatchRuns()
    {
        var silos = new List<SiloProgress> { new("10.0.0.1:11111", 40, 20.5), new("10.0.0.2:11111", 60, 30) };
        var progress = new ParallelProgress(100, 100, 0, 0, 300, TimeSpan.FromSeconds(2), 50, TimeSpan.FromSeconds(4), IsFinal: false);

        var plain = new StringWriter();
        new ProgressDisplay(plain, terminal: false).Report(progress, silos);
        Assert.Equal("progress: 100/300 (33%), 50.0 files/s, ETA 0:04; silo 10.0.0.1:11111 40 at 20.5/s, silo 10.0.0.2:11111 60 at 30.0/s", plain.ToString().TrimEnd());

        // On a terminal, a row for each silo under the batch's own.
        var terminal = new StringWriter();
        var display = new ProgressDisplay(terminal, terminal: true);
        await display.RunAsync(300, () =>
        {
            display.Report(progress, silos);
            display.Report(progress with { Completed = 300, IsFinal = true }, [silos[0] with { Converted = 140 }, silos[1] with { Converted = 160 }]);
            return Task.FromResult(0);
        });
        Assert.Contains("silo 10.0.0.1:11111", terminal.ToString(), StringComparison.Ordinal);
        Assert.Contains("silo 10.0.0.2:11111", terminal.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--to", "yaml")]
    [InlineData("--to", "snbt", "--parallel", "0")]
    [InlineData("--to", "snbt", "--rate", "fast")]
    [InlineData("--to", "compact")]
    public async Task Convert_BadArguments_AreUsageErrors(params string[] options)
    {
        Directory.CreateDirectory(In);
        var run = await CliRun.Invoke(["batch", "convert", In, Out, .. options]);
        Assert.Equal(ExitCodes.Usage, run.ExitCode);
    }

    [Fact]
    public async Task Convert_MissingFolder_IsBadInput()
    {
        var run = await CliRun.Invoke("batch", "convert", Path.Combine(_temp.FullName, "nope"), Out, "--to", "snbt");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("The folder does not exist.", run.Error, StringComparison.Ordinal);
        Assert.Empty(Encoding.UTF8.GetBytes(run.Output));
    }

    // Interrupted (as Ctrl+C does) while it waits for a cluster that does not answer (a port nothing listens on): its one
    // line says nothing was sent, where it said nothing of the job.
    [Fact]
    public async Task ClusterConvert_InterruptedBeforeItsJobWasSubmitted_SaysNothingWasSent()
    {
        Add("bigtest.nbt", "bigtest.nbt");
        int port;
        using (var probe = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0))
        {
            probe.Start();
            port = ((System.Net.IPEndPoint)probe.LocalEndpoint).Port;
        }

        using var interrupt = new CancellationTokenSource(TimeSpan.FromSeconds(2));
        var run = await CliRun.InvokeUntil(interrupt.Token, "batch", "convert", In, Out, "--to", "snbt", "--cluster", $"127.0.0.1:{port}", "--job", "never-sent");

        Assert.Equal(ExitCodes.Interrupted, run.ExitCode);
        Assert.Equal("millrace: interrupted before cluster job never-sent was submitted: nothing was sent", run.Error.TrimEnd('\n'));
    }
}

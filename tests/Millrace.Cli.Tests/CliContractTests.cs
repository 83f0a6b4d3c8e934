using System.Diagnostics;
using System.IO.Compression;

namespace Millrace.Cli.Tests;

/// <summary>
/// The tool's contract on bad input, for every verb: exit 1 for bad input or an unwritable output, 2 for a bad command
/// line; exactly one line on standard error per failure; never a stack trace; no file left behind; and a special file
/// given as an output is never replaced.
/// </summary>
public sealed class CliContractTests : IDisposable
{
    private static readonly string[] InputCases = ["missing", "empty", "folder", "garbage", "truncated", "/dev/zero"];

    private readonly DirectoryInfo _temp = Directory.CreateTempSubdirectory("millrace-contract-");

    public CliContractTests()
    {
        Directory.CreateDirectory(Path.Combine(_temp.FullName, "folder"));
        File.WriteAllBytes(Path.Combine(_temp.FullName, "empty"), []);
        File.WriteAllBytes(Path.Combine(_temp.FullName, "garbage"), [0x0A, 0xFF, 0x13, 0x37, 0x00, 0x42, 0x99, 0x28, 0x72]);
        var gzip = new MemoryStream();
        using (var writer = new GZipStream(gzip, CompressionLevel.Optimal, leaveOpen: true))
        {
            writer.Write(File.ReadAllBytes(CliRun.Sample("bigtest.nbt")));
        }

        File.WriteAllBytes(Path.Combine(_temp.FullName, "truncated"), gzip.ToArray().AsSpan(0, (int)gzip.Length - 3).ToArray());
        File.Copy(CliRun.Sample("hello_world.nbt"), Path.Combine(_temp.FullName, "good.nbt"));
        File.Copy(CliRun.Sample("users.json"), Path.Combine(_temp.FullName, "good.json"));
        File.Copy(CliRun.Sample("user.schema.json"), Path.Combine(_temp.FullName, "schema.json"));
    }

    // Every verb that reads a file, with {in} for the bad input and {out} for a fresh output path.
    public static TheoryData<string> ReadingVerbs =>
    [
        "json count {in}",
        "json head {in}",
        "json validate {in}",
        "json from-base64 {in}",
        "nbt show {in}",
        "nbt convert {in} {out} --to snbt",
        "nbt convert {in} {out} --to bedrock",
        "nbt region list {in}",
        "nbt region get {in} 0 0",
        "nbt region put r.0.0.mca 0 0 {in}",
        "compact encode {in} {out} --schema schema.json --type User",
        "compact decode {in} --schema schema.json",
        "compact inspect {in}",
        "compact size {in} --schema schema.json --type User",
        "compact encode good.json {out} --schema {in} --type User",
        "compact check {in} schema.json",
        "compact check schema.json {in}",
    ];

    // Every verb that writes a file, with {out} for the bad output.
    public static TheoryData<string> WritingVerbs =>
    [
        "nbt convert good.nbt {out} --to java",
        "nbt convert good.nbt {out} --to snbt",
        "compact encode good.json {out} --schema schema.json --type User",
        "nbt region put {out} 0 0 good.nbt",
    ];

    public static TheoryData<string> UsageErrors =>
    [
        "batch convert in out --to snbt --parallel abc",
        "batch convert in out --to snbt --retries abc",
        "batch convert in out --to snbt --parallel 99999999999",
        "batch convert in out --to snbt --parallel 0",
        "batch convert in out --to snbt --rate fast",
        "batch convert in out --to xml",
        "json head good.json -n abc",
        "json head good.json -n -1",
        "json head good.json --path data.items",
        "json count good.json --no-such-option",
        "nbt region get r.0.0.mca 32 0",
        "nbt region get r.0.0.mca abc 0",
        "json from-base64 good.json --alphabet klingon",
        "nosuchverb",
        "batch convert in out --to snbt --cluster nonsense",
        "batch convert in out --to snbt --cluster 127.0.0.1:99999",
        "cluster status --cluster nonsense",
        "cluster status --cluster no-such-host.invalid:30000",
        "cluster silo --redis no-such-host.invalid:6379",
        "cluster silo --port 0",
        "cluster silo --parallel abc",
        "cluster nosuchverb",
    ];

    public void Dispose() => _temp.Delete(recursive: true);

    [Theory]
    [MemberData(nameof(ReadingVerbs))]
    public async Task EveryReadingVerb_OnEveryBadInput_ExitsOneWithOneLine(string template)
    {
        foreach (var input in InputCases)
        {
            if (input == "empty" && template == "nbt region list {in}")
            {
                // An empty file is an empty region, as Minecraft creates and reads them.
                continue;
            }

            var output = Path.Combine(_temp.FullName, "out.bin");
            var before = Files();
            var run = await Run(template.Replace("{in}", input, StringComparison.Ordinal).Replace("{out}", output, StringComparison.Ordinal));

            var because = $"'{template}' on {input}: exit {run.ExitCode}, stderr: {run.Error}";
            Assert.True(run.ExitCode == ExitCodes.BadInput, because);
            AssertOneCleanLine(run.Error, because);
            Assert.Equal(before, Files());
        }
    }

    [Theory]
    [MemberData(nameof(WritingVerbs))]
    public async Task EveryWritingVerb_OnEveryBadOutput_ExitsOneWithOneLineAndReplacesNothing(string template)
    {
        foreach (var output in new[] { "folder", "no-such-folder/out.bin", "/proc/self/millrace-out", "/dev/full", "/dev/null" })
        {
            var before = Files();
            var run = await Run(template.Replace("{out}", output, StringComparison.Ordinal));

            var because = $"'{template}' to {output}: exit {run.ExitCode}, stderr: {run.Error}";
            Assert.True(run.ExitCode == ExitCodes.BadInput, because);
            AssertOneCleanLine(run.Error, because);
            Assert.Equal(before, Files());
        }

        Assert.Equal("character special file", StatType("/dev/full"));
        Assert.Equal("character special file", StatType("/dev/null"));
    }

    [Theory]
    [MemberData(nameof(UsageErrors))]
    public async Task BadCommandLines_ExitTwoNamingTheProblem(string command)
    {
        var run = await Run(command);

        Assert.True(run.ExitCode == ExitCodes.Usage, $"'{command}': exit {run.ExitCode}, stderr: {run.Error}");
        Assert.All(run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries), line => Assert.StartsWith("millrace: ", line, StringComparison.Ordinal));
        Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("Millrace.", run.Error, StringComparison.Ordinal);
    }

    // A batch converts regular files: a pipe in the input folder (which blocked the run for good when nothing wrote to
    // it) fails alone, in one line, while the other files convert; an output "folder" that is a file is one line too.
    [Fact]
    public async Task Batch_WithAPipeInTheInput_FailsItAlone_AndAFileAsTheOutputFolderIsOneLine()
    {
        var input = Path.Combine(_temp.FullName, "in");
        Directory.CreateDirectory(input);
        File.Copy(CliRun.Sample("hello_world.nbt"), Path.Combine(input, "a.nbt"));
        File.Copy(CliRun.Sample("hello_world.nbt"), Path.Combine(input, "b.nbt"));
        using (var mkfifo = Process.Start("mkfifo", [Path.Combine(input, "pipe.nbt")]))
        {
            await mkfifo.WaitForExitAsync();
            Assert.Equal(0, mkfifo.ExitCode);
        }

        var run = await Run("batch convert in out --to snbt --quiet");

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("pipe.nbt: io.open: It is a device, pipe or socket, not a regular file.", run.Error, StringComparison.Ordinal);
        Assert.Single(run.Error.Split('\n'), line => line.StartsWith("millrace: ", StringComparison.Ordinal));
        Assert.DoesNotContain("Exception", run.Error, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(_temp.FullName, "out", "a.snbt")));
        Assert.True(File.Exists(Path.Combine(_temp.FullName, "out", "b.snbt")));

        File.WriteAllText(Path.Combine(_temp.FullName, "file"), "x");
        run = await Run("batch convert in file --to snbt --quiet");

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("io.output: The output folder is a file.", run.Error, StringComparison.Ordinal);
        AssertOneCleanLine(run.Error, "one line, not one per file");
        Assert.Equal("x", File.ReadAllText(Path.Combine(_temp.FullName, "file")));

        run = await Run("batch convert in /dev/null --to snbt --quiet");

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("io.output: The output folder is a device, pipe or socket.", run.Error, StringComparison.Ordinal);
        AssertOneCleanLine(run.Error, "a special file named as the output folder, said as such");
    }

    // A Redis that does not answer is a cluster that cannot be reached, said in one line by a submitter and by a silo:
    // the Redis client's exception (a page of connection state) escaped both as a crash, exit 134.
    [Theory]
    [InlineData("cluster status --cluster redis://127.0.0.1:1")]
    [InlineData("batch convert in out --to snbt --cluster redis://127.0.0.1:1")]
    [InlineData("cluster silo --redis 127.0.0.1:1")]
    public async Task UnreachableRedis_IsOneLine_AndExitOne(string command)
    {
        Directory.CreateDirectory(Path.Combine(_temp.FullName, "in"));
        File.Copy(CliRun.Sample("hello_world.nbt"), Path.Combine(_temp.FullName, "in", "a.nbt"), overwrite: true);

        var run = await Run(command);

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("No Redis answered at 127.0.0.1:1", run.Error, StringComparison.Ordinal);
        AssertOneCleanLine(run.Error, "the cluster unreachable, in the user's words");
        Assert.False(Directory.Exists(Path.Combine(_temp.FullName, "out")));
    }

    // A silo told to take a port something else holds crashed with Orleans' bind exception (exit 134).
    [Fact]
    public async Task SiloOnATakenPort_IsOneLine_AndExitOne()
    {
        using var holder = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        holder.Start();
        var taken = ((System.Net.IPEndPoint)holder.LocalEndpoint).Port;

        var run = await Run($"cluster silo --port {taken} --storage jobs");

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains($"cluster: Port {taken} of 127.0.0.1 is taken", run.Error, StringComparison.Ordinal);
        AssertOneCleanLine(run.Error, "a taken port, in the user's words");
    }

    // A value the target format cannot carry is the writer's ArgumentException: its message named the library's parameter.
    [Fact]
    public async Task AStringTooLongForNbt_IsOneLineWithoutTheLibrarysParameterName()
    {
        File.WriteAllText(Path.Combine(_temp.FullName, "long.snbt"), $"{{a:\"{new string('x', 70_000)}\"}}");

        var run = await Run("nbt convert long.snbt long.nbt --to java");

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("exceeds the format's limit of 65535", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("Parameter", run.Error, StringComparison.Ordinal);
        AssertOneCleanLine(run.Error, "a value the format cannot carry");
        Assert.False(File.Exists(Path.Combine(_temp.FullName, "long.nbt")));
    }

    // Both ports the same: the silo bound the port twice and waited for good without a word.
    [Fact]
    public async Task SiloWithOnePortForBoth_IsAUsageError()
    {
        var run = await Run("cluster silo --port 41999 --gateway-port 41999 --storage jobs");

        Assert.Equal(ExitCodes.Usage, run.ExitCode);
        Assert.Contains("must differ", run.Error, StringComparison.Ordinal);
        AssertOneCleanLine(run.Error, "a usage error");
    }

    [Fact]
    public async Task BadOptionValue_NamesTheOption()
    {
        var run = await Run("batch convert in out --to snbt --parallel abc");

        Assert.Contains("--parallel must be a whole number from 1 to 1024, not 'abc'", run.Error, StringComparison.Ordinal);
        AssertOneCleanLine(run.Error, "one problem, one line (the pointer to the help on it)");
    }

    [Fact]
    public async Task BatchIntoItsOwnFolder_IsAUsageError()
    {
        Directory.CreateDirectory(Path.Combine(_temp.FullName, "in"));
        File.Copy(CliRun.Sample("hello_world.nbt"), Path.Combine(_temp.FullName, "in", "a.nbt"));

        var run = await Run("batch convert in in --to snbt");

        Assert.Equal(ExitCodes.Usage, run.ExitCode);
        Assert.False(File.Exists(Path.Combine(_temp.FullName, "in", "a.snbt")));
    }

    [Fact]
    public async Task Output_Dash_IsStandardOutput()
    {
        var run = await Run("nbt convert good.nbt - --to snbt");

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Contains("Bananrama", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task NbtShow_ReadsSnbtAsConvertDoes()
    {
        await File.WriteAllTextAsync(Path.Combine(_temp.FullName, "x.snbt"), "{a: 1b, list: [I; 1, 2]}");

        var run = await Run("nbt show x.snbt");

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Contains("a: 1b", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AbandonedTemporaryFiles_AreRemovedByTheNextWrite()
    {
        // Left by runs that were killed: one of this version (a process that is gone) and one of version 0.1.
        var ours = Path.Combine(_temp.FullName, ".out.nbt.999999999.millrace.tmp");
        var legacy = Path.Combine(_temp.FullName, ".out.nbt.0123456789abcdef0123456789abcdef.tmp");
        await File.WriteAllTextAsync(ours, "partial");
        await File.WriteAllTextAsync(legacy, "partial");

        var run = await Run("nbt convert good.nbt out.nbt --to java");

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.False(File.Exists(ours));
        Assert.False(File.Exists(legacy));
    }

    [Fact]
    public async Task TemporaryFiles_OfThisMachine_AreJudgedByProcess_AndAnotherMachinesAreLeftAlone()
    {
        // Silos on several machines write into one shared folder: a process number says nothing about another machine.
        var host = OutputFile.ThisHost;
        var mine = Path.Combine(_temp.FullName, $".out.nbt.999999999@{host}.millrace.tmp");
        var theirs = Path.Combine(_temp.FullName, $".out.nbt.999999999@other-{host}.millrace.tmp");
        await File.WriteAllTextAsync(mine, "partial");
        await File.WriteAllTextAsync(theirs, "being written elsewhere");

        var run = await Run("nbt convert good.nbt out.nbt --to java");

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.False(File.Exists(mine));
        Assert.True(File.Exists(theirs));
    }

    [Fact]
    public async Task JsonErrors_CarryTheAbsoluteOffsetWithLineAndColumn()
    {
        await File.WriteAllTextAsync(Path.Combine(_temp.FullName, "multi.json"), "{\n  \"id\": 1,\n  \"name\": \"x\",\n  \"age\": ,\n}");

        var run = await Run("compact encode multi.json out.mrc --schema schema.json --type User");

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("(line 4, column 10) (byte offset 37)", run.Error, StringComparison.Ordinal);
    }

    private static void AssertOneCleanLine(string error, string because)
    {
        var lines = error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(lines.Length == 1, because);
        Assert.StartsWith("millrace: ", lines[0], StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", error, StringComparison.Ordinal);
    }

    private static string StatType(string path)
    {
        using var stat = Process.Start(new ProcessStartInfo("stat", ["-c", "%F", path]) { RedirectStandardOutput = true })!;
        var type = stat.StandardOutput.ReadToEnd().Trim();
        stat.WaitForExit();
        return type;
    }

    private string[] Files() =>
        [.. Directory.EnumerateFiles(_temp.FullName, "*", SearchOption.AllDirectories).Select(f => Path.GetRelativePath(_temp.FullName, f)).Order(StringComparer.Ordinal)];

    private async Task<CliRun> Run(string command)
    {
        var previous = Environment.CurrentDirectory;
        Environment.CurrentDirectory = _temp.FullName;
        try
        {
            return await CliRun.Invoke(command.Split(' ', StringSplitOptions.RemoveEmptyEntries));
        }
        finally
        {
            Environment.CurrentDirectory = previous;
        }
    }
}

using System.Diagnostics;
using System.IO.Compression;

namespace Millrace.Cli.Tests;

/// <summary>The real tool in its own process, stopped by a signal in the middle of a batch.</summary>
public sealed class SignalTests : IDisposable
{
    private readonly DirectoryInfo _temp = Directory.CreateTempSubdirectory("millrace-signal-");

    public void Dispose() => _temp.Delete(recursive: true);

    [Theory]
    [InlineData("TERM", ExitCodes.Terminated)]
    [InlineData("INT", ExitCodes.Interrupted)]
    public async Task Batch_StoppedBySignal_SummarizesNamesTheFailuresSoFarExitsWithTheSignalsCodeAndLeavesNoTemporaryFile(string signal, int expected)
    {
        var input = Path.Combine(_temp.FullName, "in");
        var output = Path.Combine(_temp.FullName, "out");
        Directory.CreateDirectory(input);
        for (var i = 0; i < 200; i++)
        {
            File.Copy(CliRun.Sample("bigtest.nbt"), Path.Combine(input, $"file{i:000}.nbt"));
        }

        // The first file, cut short: it fails long before the signal, which must not make its line go unsaid.
        using (var gzip = new GZipStream(File.OpenRead(CliRun.Sample("bigtest.nbt")), CompressionMode.Decompress))
        using (var cut = File.Create(Path.Combine(input, "file000.nbt")))
        {
            var nbt = new MemoryStream();
            gzip.CopyTo(nbt);
            cut.Write(nbt.GetBuffer().AsSpan(0, 500));
        }

        // 20 files a second: the batch needs 10 s, and is stopped after about one. One at a time, so the first file has
        // failed by the time 5 outputs are there.
        var start = new ProcessStartInfo("dotnet", [Path.Combine(AppContext.BaseDirectory, "millrace.dll"), "batch", "convert", input, output, "--to", "snbt", "--rate", "20/s", "--parallel", "1"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        while (!Directory.Exists(output) || Directory.GetFiles(output, "*.snbt").Length < 5)
        {
            if (process.HasExited)
            {
                Assert.Fail($"the batch ended before it was stopped: {await stdout} {await stderr}");
            }

            await Task.Delay(20, timeout.Token);
        }

        using (var kill = Process.Start("kill", ["-" + signal, process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            await kill.WaitForExitAsync(timeout.Token);
            Assert.Equal(0, kill.ExitCode);
        }

        await process.WaitForExitAsync(timeout.Token);

        Assert.True(expected == process.ExitCode, $"exit {process.ExitCode}; stdout: {await stdout}; stderr: {await stderr}");
        Assert.Matches(@"^cancelled: \d+ of 200 files converted to snbt in [\d.]+ s; 1 failed", await stdout);
        Assert.Single((await stderr).Split('\n'), line => line.Contains("file000.nbt: nbt.", StringComparison.Ordinal));
        Assert.DoesNotContain("Exception", await stderr, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(output, "*.tmp", SearchOption.AllDirectories));
        Assert.True(Directory.GetFiles(output).Length < 200);
    }

    // Opening a pipe that has no writer blocks where no cancellation reaches: the tool still ends with the signal's code,
    // 5 s after one signal, at once after a second; a signal repeated within milliseconds (a wrapper such as `timeout`
    // passing on the Ctrl+C the terminal also sent) is the same one.
    [Theory]
    [InlineData(1, 0)]
    [InlineData(2, 1500)]
    [InlineData(2, 0)]
    public async Task BlockedOnAPipeWithNoWriter_StillEndsWithTheSignalsCode(int signals, int gapMilliseconds)
    {
        var pipe = Path.Combine(_temp.FullName, "pipe");
        using (var mkfifo = Process.Start("mkfifo", [pipe]))
        {
            await mkfifo.WaitForExitAsync();
        }

        var start = new ProcessStartInfo("dotnet", [Path.Combine(AppContext.BaseDirectory, "millrace.dll"), "nbt", "show", pipe])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        await Task.Delay(TimeSpan.FromSeconds(2));
        var clock = Stopwatch.StartNew();
        var id = process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture);

        // Back-to-back signals come from one `kill` naming the process twice: two `kill` processes started one after
        // the other can be more than 500 ms apart on a loaded machine (CI ran this test beside others and failed).
        string[][] kills = gapMilliseconds == 0 ? [["-TERM", .. Enumerable.Repeat(id, signals)]] : [.. Enumerable.Repeat<string[]>(["-TERM", id], signals)];
        foreach (var arguments in kills)
        {
            using var kill = Process.Start("kill", arguments)!;
            await kill.WaitForExitAsync();
            await Task.Delay(gapMilliseconds);
        }

        var second = signals == 2 && gapMilliseconds > 0;

        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await process.WaitForExitAsync(timeout.Token);

        Assert.Equal(ExitCodes.Terminated, process.ExitCode);
        Assert.DoesNotContain("Exception", await stderr, StringComparison.Ordinal);
        Assert.Equal(
            second ? "millrace: stopped at a second signal, before the run had ended" : "millrace: stopped: the run had not ended 5 s after the signal",
            Assert.Single((await stderr).Split('\n', StringSplitOptions.RemoveEmptyEntries)));
        Assert.True(second ? clock.Elapsed < TimeSpan.FromSeconds(4) : clock.Elapsed >= TimeSpan.FromSeconds(4), $"ended after {clock.Elapsed}");
    }
}

using System.Globalization;
using Millrace.Benchmarks.Worlds;

namespace Millrace.Benchmarks.Reporting.Suites;

/// <summary>Worlds (issue 43): a world scan against the floor of inflating its chunks.</summary>
internal static class WorldsSuite
{
    private const string Class = nameof(WorldBenchmarks);
    private const string Floor = "Floor: inflate every chunk (zlib into a reused buffer, no parsing)";
    private const string Statistics = "Millrace world stats (RegionFile, Chunk, WorldStatistics)";

    public static BenchmarkSuite Create() => new()
    {
        Name = "worlds",
        Title = "Worlds",
        Benchmarks = [typeof(WorldBenchmarks)],
        WarmupCount = 2,
        IterationCount = 8,
        Targets = Targets,
        Headline = results => new Headline(
            $"world stats at {Throughput(results, "1")} of the inflate-only floor's throughput on one worker, {Throughput(results, "2")} on two",
            "none (no seed: issue 43)",
            "no peer scans a world from .NET; MCA Selector and fastanvil are not timed here"),
        Sections = new Dictionary<string, Func<RunResults, string>> { ["rates"] = Rates },
    };

    // The scan's throughput as a share of the floor's: the floor's time over the scan's.
    private static double? ThroughputRatio(RunResults results, string workers) =>
        results.Find(Class, Statistics, workers) is { MeanNs: { } scan } && results.Find(Class, Floor, workers) is { MeanNs: { } floor } ? floor / scan : null;

    private static string Throughput(RunResults results, string workers) => Format.Ratio(ThroughputRatio(results, workers));

    private static IEnumerable<TargetResult> Targets(RunResults results)
    {
        foreach (var (workers, label) in new[] { ("1", "one core"), ("2", "all (two) cores") })
        {
            var scan = results.Find(Class, Statistics, workers);
            var floor = results.Find(Class, Floor, workers);
            yield return TargetResult.AtLeast(
                $"world stats ≥ 0.80× the inflate-only throughput, {label}",
                ThroughputRatio(results, workers),
                0.80,
                $"{Throughput(results, workers)} ({Format.Time(scan?.MeanNs)} vs {Format.Time(floor?.MeanNs)})");
        }
    }

    // MB of region data and chunks per second, each row, from its mean.
    private static string Rates(RunResults results)
    {
        var (bytes, chunks) = (WorldBenchmarks.RegionBytes, WorldBenchmarks.ChunkCount);
        var table = new System.Text.StringBuilder("| row | workers | region data, MB/s | chunks/s |\n|---|---:|---:|---:|\n");
        foreach (var workers in new[] { "1", "2" })
        {
            foreach (var method in new[] { Floor, Statistics })
            {
                if (results.Find(Class, method, workers) is { MeanNs: { } mean })
                {
                    var seconds = mean / 1e9;
                    table.Append(CultureInfo.InvariantCulture, $"| {method} | {workers} | {bytes / 1e6 / seconds:0.0} | {Format.Count(chunks / seconds)} |\n");
                }
            }
        }

        return table.Append(CultureInfo.InvariantCulture, $"\n{Format.Count(bytes)} bytes of region data, {Format.Count(chunks)} chunks a scan.").ToString();
    }
}

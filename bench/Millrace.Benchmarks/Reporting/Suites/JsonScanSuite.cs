namespace Millrace.Benchmarks.Reporting.Suites;

/// <summary>Scanning JSON at the tokenizer's speed (issue 16): a large array counted from a file.</summary>
internal static class JsonScanSuite
{
    private const string Class = nameof(JsonScanBenchmarks);
    private const string ReaderLoop = "Utf8JsonReader TrySkip loop (1 MiB buffer)";
    private const string Raw = "Millrace ReadRawAsync (count)";
    private const string Bound = "Millrace ReadAsync<JsonElement> (count)";
    private const string Stj = "STJ DeserializeAsyncEnumerable<JsonElement> (count)";
    private const string Records = "3000000";
    private const string BindingClass = nameof(JsonBindingBenchmarks);
    private const string StjAll = "STJ DeserializeAsyncEnumerable (all, 1 KB records)";
    private const string OneWorker = "Millrace ReadAsync, 1 worker (all, 1 KB records)";
    private const string TwoWorkers = "Millrace ReadAsync, 2 workers (all, 1 KB records)";
    private const string WideRecords = "100000";

    public static BenchmarkSuite Create() => new()
    {
        Name = "json-scan",
        Title = "JSON scanning and multi-core binding",
        Benchmarks = [typeof(JsonScanBenchmarks), typeof(JsonBindingBenchmarks)],

        // One operation reads the whole file (seconds): a few iterations measure it well, once the code has reached its
        // last JIT tier. The two-worker read took several reads to get there (stopwatch, one process: 1.31 s, 1.21 s,
        // then 368-378 ms three times, then 287-322 ms), so one warmup read measured tiers on the way.
        WarmupCount = 6,
        IterationCount = 5,
        Targets = Targets,
        Headline = results => new Headline(
            $"3 M records from a file: raw items {Ratio(results, Raw)} × a bare `Utf8JsonReader` loop; 100 MB of 1 KB records bound on 2 workers: {Speedup(results, OneWorker, TwoWorkers)}× one worker",
            "(no seed row: issue 16's targets)",
            $"against STJ `DeserializeAsyncEnumerable`: 2 workers {Speedup(results, StjAll, TwoWorkers)}× its throughput; JsonElement count {Ratio(results, Stj)} × the reader loop"),
    };

    private static string Ratio(RunResults results, string method) => Format.Ratio(results.TimeRatio(results.Find(Class, method, Records)));

    private static string Speedup(RunResults results, string slower, string faster) => Format.Ratio(SpeedupOf(results, slower, faster));

    // Throughput of `faster` over `slower`: the ratio of their times, on the same data.
    private static double? SpeedupOf(RunResults results, string slower, string faster) =>
        results.Find(BindingClass, slower, WideRecords)?.MeanNs / results.Find(BindingClass, faster, WideRecords)?.MeanNs;

    private static IEnumerable<TargetResult> Targets(RunResults results)
    {
        var loop = results.Find(Class, ReaderLoop, Records);
        var raw = results.Find(Class, Raw, Records);
        yield return TargetResult.AtMost(
            "raw items within 1.10× of a bare Utf8JsonReader.TrySkip loop (1 MiB buffer), one run, large file",
            results.TimeRatio(raw),
            1.10,
            $"{Format.Ratio(results.TimeRatio(raw))} ({Format.Time(raw?.MeanNs)} vs {Format.Time(loop?.MeanNs)})");

        var one = results.Find(BindingClass, OneWorker, WideRecords);
        var two = results.Find(BindingClass, TwoWorkers, WideRecords);
        var stj = results.Find(BindingClass, StjAll, WideRecords);
        yield return TargetResult.AtLeast(
            "2 binding workers: read-all throughput ≥ 1.7× the single-worker path (2 cores, 100 MB of ~1 KB records)",
            SpeedupOf(results, OneWorker, TwoWorkers),
            1.7,
            $"{Speedup(results, OneWorker, TwoWorkers)}× ({Format.Time(two?.MeanNs)} vs {Format.Time(one?.MeanNs)})");
        yield return TargetResult.AtLeast(
            "2 binding workers: read-all throughput ≥ 1.7× STJ DeserializeAsyncEnumerable",
            SpeedupOf(results, StjAll, TwoWorkers),
            1.7,
            $"{Speedup(results, StjAll, TwoWorkers)}× ({Format.Time(two?.MeanNs)} vs {Format.Time(stj?.MeanNs)})");
        yield return TargetResult.AtMost(
            "no extra allocation per item beyond the bound object (2 workers against 1, allocated bytes)",
            two?.AllocatedBytes / (double?)one?.AllocatedBytes,
            1.02,
            $"{Format.Bytes(two?.AllocatedBytes)} vs {Format.Bytes(one?.AllocatedBytes)} for {WideRecords} records");
    }
}

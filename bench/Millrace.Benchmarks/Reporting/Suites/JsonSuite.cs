namespace Millrace.Benchmarks.Reporting.Suites;

/// <summary>Streaming JSON (issue 2): <c>../shared/seeds/streaming-deserialization.md</c>.</summary>
internal static class JsonSuite
{
    private const string Class = nameof(StreamingBenchmarks);
    private const string Baseline = "STJ DeserializeAsync<List<T>> (full)";
    private const string StreamAll = "Millrace ReadAsync (all)";
    private const string Take10 = "Millrace ReadAsync (take 10)";
    private const string Take100 = "Millrace ReadAsync (take 100)";
    private const string FullList = "Millrace ReadListAsync (full)";
    private const string Records = "1000";

    public static BenchmarkSuite Create() => new()
    {
        Name = "json",
        Title = "Streaming JSON",
        Benchmarks = [typeof(StreamingBenchmarks)],
        WarmupCount = 5,
        IterationCount = 15,
        Targets = Targets,
        Headline = results => new Headline(
            $"1,000 records: stream all {Ratio(results, StreamAll)} time / {Format.Ratio(results.AllocationRatio(results.Find(Class, StreamAll, Records)))} alloc; take 10: {Ratio(results, Take10)}; take 100: {Ratio(results, Take100)}; full list {Ratio(results, FullList)}",
            "stream all 1.41 time / 1.99 alloc; take 10: 0.41; take 100: 0.44",
            $"STJ `DeserializeAsyncEnumerable` take 10: {Ratio(results, "STJ DeserializeAsyncEnumerable (take 10)")}; Newtonsoft.Json full: {Ratio(results, "Newtonsoft.Json Deserialize<List<T>> (full)")}"),
    };

    private static string Ratio(RunResults results, string method) => Format.Ratio(results.TimeRatio(results.Find(Class, method, Records)));

    private static IEnumerable<TargetResult> Targets(RunResults results)
    {
        var baseline = results.Find(Class, Baseline, Records);
        var all = results.Find(Class, StreamAll, Records);
        var take10 = results.Find(Class, Take10, Records);
        var take100 = results.Find(Class, Take100, Records);
        var list = results.Find(Class, FullList, Records);
        yield return TargetResult.AtMost("stream all ≤ 1.05 time", results.TimeRatio(all), 1.05, $"{Format.Ratio(results.TimeRatio(all))} ({Format.Time(all?.MeanNs)} vs {Format.Time(baseline?.MeanNs)})");
        yield return TargetResult.AtMost("stream all ≤ 1.10 allocated", results.AllocationRatio(all), 1.10, $"{Format.Ratio(results.AllocationRatio(all))} ({Format.Bytes(all?.AllocatedBytes)} vs {Format.Bytes(baseline?.AllocatedBytes)})");
        yield return TargetResult.AtMost("take 10 ≤ 0.05 time", results.TimeRatio(take10), 0.05, $"{Format.Ratio(results.TimeRatio(take10))} ({Format.Time(take10?.MeanNs)})");
        yield return TargetResult.AtMost("take 100 ≤ 0.15 time", results.TimeRatio(take100), 0.15, $"{Format.Ratio(results.TimeRatio(take100))} ({Format.Time(take100?.MeanNs)})");
        var listRatio = results.TimeRatio(list);
        yield return TargetResult.AtMost(
            "full materialization at least as fast as System.Text.Json (a tie within 2% counts: run-to-run noise here is larger)",
            listRatio,
            1.02,
            $"{Format.Ratio(listRatio)} ({Format.Time(list?.MeanNs)} vs {Format.Time(baseline?.MeanNs)})");
    }
}

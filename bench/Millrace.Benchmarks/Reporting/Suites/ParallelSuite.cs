using System.Globalization;
using System.Text;
using Millrace.Benchmarks.Parallel;

namespace Millrace.Benchmarks.Reporting.Suites;

/// <summary>Parallel operators (issue 3): <c>../shared/seeds/parallel-operators.md</c>.</summary>
internal static class ParallelSuite
{
    private const string Scaling = nameof(ConcurrencyScalingBenchmarks);
    private const string Cpu = nameof(CoreOperatorsCpuBenchmarks);
    private const string Errors = nameof(ErrorHandlingBenchmarks);
    private const string Advanced = nameof(AdvancedFeaturesBenchmarks);
    private const string Delay = "One Task.Delay(1)";
    private const string Millrace = "Millrace ForEachParallelAsync";
    private const string ForEachAsync = "Parallel.ForEachAsync";
    private const int ScalingItems = 1_000;
    private const int CpuItems = 1_000;
    private const int RetryRounds = 7;
    private const double RetryBaseMs = 10;
    private static readonly int[] Dops = [1, 2, 4, 8, 16, 32, 64, 128];
    private static readonly string[] Peers = ["Sequential", "Parallel.ForEachAsync", "Task.WhenAll", "Dataflow", "Polly", "One Task.Delay"];
    private static readonly string[] CpuOperators =
        ["Millrace SelectParallelAsync", "Millrace SelectParallelAsync (ordered)", "Millrace SelectParallelStreamAsync", Millrace];

    private static readonly string[] CongestedFixed =
    [
        "Congested service, fixed limit 8", "Congested service, fixed limit 16 (the knee)",
        "Congested service, fixed limit 24", "Congested service, fixed limit 32",
    ];

    private static readonly string[] IdleFeatures =
        ["With CircuitBreaker", "With RateLimit (token bucket)", "With Progress tracking", "With Metrics tracking (listener attached)"];

    public static BenchmarkSuite Create() => new()
    {
        Name = "parallel",
        Title = "Parallel operators",
        Benchmarks =
        [
            typeof(ConcurrencyScalingBenchmarks), typeof(CoreOperatorsCpuBenchmarks), typeof(CoreOperatorsIoBenchmarks),
            typeof(BatchingBenchmarks), typeof(ErrorHandlingBenchmarks), typeof(AdvancedFeaturesBenchmarks),
        ],
        WarmupCount = 2,
        IterationCount = 6,
        IsMillrace = method => !Peers.Any(peer => method.StartsWith(peer, StringComparison.Ordinal)),
        Targets = Targets,
        Headline = Headline,
        Sections = new Dictionary<string, Func<RunResults, string>> { ["scaling"] = ScalingTable, ["retries"] = RetryTable },
        Values = new Dictionary<string, Func<RunResults, string>>
        {
            ["tick"] = results => Format.Time(Tick(results)),
            ["retry-vs-polly"] = results => Compare(results, Errors, "Retries, 10% transient, Backoff.Constant", "Polly v8 retry in Parallel.ForEachAsync, Constant"),
            ["breaker-vs-polly"] = results => Compare(results, Advanced, "With CircuitBreaker", "Polly v8 circuit breaker in Parallel.ForEachAsync"),
        },
    };

    /// <summary>The measured length of <c>Task.Delay(1)</c>: this machine's timer tick.</summary>
    private static double? Tick(RunResults results) => results.Find(Scaling, Delay, "1")?.MeanNs;

    /// <summary>How long a <c>Task.Delay(ms)</c> lasts on a timer that fires every <paramref name="tickNs"/>.</summary>
    private static double Effective(double milliseconds, double tickNs) => Math.Max(1, Math.Ceiling((milliseconds * 1e6 / tickNs) - 0.05)) * tickNs;

    private static double? IdealScaling(RunResults results, int dop) =>
        Tick(results) is { } tick ? Math.Ceiling((double)ScalingItems / dop) * tick : null;

    private static IEnumerable<(int Dop, double? Ideal, MeasuredCase? Ours, MeasuredCase? Peer)> ScalingRows(RunResults results) =>
        Dops.Select(dop => (dop, IdealScaling(results, dop), results.Find(Scaling, Millrace, Inv(dop)), results.Find(Scaling, ForEachAsync, Inv(dop))));

    private static string Inv(int value) => value.ToString(CultureInfo.InvariantCulture);

    private static string ScalingTable(RunResults results)
    {
        var text = new StringBuilder($"| DOP | ideal = ceil(1000/DOP) × {Format.Time(Tick(results))} | Millrace | vs ideal | Parallel.ForEachAsync | Millrace / Parallel.ForEachAsync |\n|---:|---:|---:|---:|---:|---:|\n");
        foreach (var (dop, ideal, ours, peer) in ScalingRows(results))
        {
            text.Append(CultureInfo.InvariantCulture, $"| {dop} | {Format.Time(ideal)} | {Format.Time(ours?.MeanNs)} | {Format.Ratio(ours?.MeanNs / ideal)} | {Format.Time(peer?.MeanNs)} | {Format.Ratio(ours?.MeanNs / peer?.MeanNs)} |\n");
        }

        return text.ToString().TrimEnd('\n');
    }

    private static IEnumerable<(string Label, double? Theoretical, MeasuredCase? Measured)> RetryRows(RunResults results)
    {
        var tick = Tick(results);
        double? constant = tick is { } t ? RetryRounds * (Effective(RetryBaseMs, t) + Effective(RetryBaseMs, t)) : null;
        double? exponential = tick is { } u ? RetryRounds * (Effective(RetryBaseMs, u) + Effective(RetryBaseMs * 2, u)) : null;
        yield return ("Constant (10 + 10 ms)", constant, results.Find(Errors, "Retries, 10% transient, Backoff.Constant"));
        yield return ("Exponential (10 + 20 ms)", exponential, results.Find(Errors, "Retries, 10% transient, Backoff.Exponential"));
        yield return ("Polly v8 retry, Constant (peer)", constant, results.Find(Errors, "Polly v8 retry in Parallel.ForEachAsync, Constant"));
    }

    private static string RetryTable(RunResults results)
    {
        var text = new StringBuilder("| backoff | theoretical: 7 rounds × both delays on this timer | measured | ratio |\n|---|---:|---:|---:|\n");
        foreach (var (label, theoretical, measured) in RetryRows(results))
        {
            text.Append(CultureInfo.InvariantCulture, $"| {label} | {Format.Time(theoretical)} | {Format.Time(measured?.MeanNs)} | {Format.Ratio(measured?.MeanNs / theoretical)} |\n");
        }

        return text.ToString().TrimEnd('\n');
    }

    private static string Compare(RunResults results, string className, string ours, string peer)
    {
        var a = results.Find(className, ours);
        var b = results.Find(className, peer);
        return $"{Format.Ratio(a?.MeanNs / b?.MeanNs)}× its time and {Format.Ratio((double?)a?.AllocatedBytes / b?.AllocatedBytes)}× its allocation ({Format.Time(a?.MeanNs)} and {Format.Bytes(a?.AllocatedBytes)} against {Format.Time(b?.MeanNs)} and {Format.Bytes(b?.AllocatedBytes)})";
    }

    private static string Range(IEnumerable<double?> values)
    {
        var known = values.Where(v => v is not null).Select(v => v!.Value).ToList();
        return known.Count == 0 ? "n/a" : $"{Format.Ratio(known.Min())}–{Format.Ratio(known.Max())}";
    }

    private static Headline Headline(RunResults results)
    {
        var rows = ScalingRows(results).ToList();
        var select = results.Find(Cpu, "Millrace SelectParallelAsync");
        var sequential = results.Find(Cpu, "Sequential loop");
        return new Headline(
            $"1 ms I/O at DOP 1–128: {Range(rows.Select(r => r.Ours?.MeanNs / r.Ideal))} × ideal; CPU-light overhead {Format.Time((select?.MeanNs - sequential?.MeanNs) / CpuItems)} / {Format.Bytes((select?.AllocatedBytes - sequential?.AllocatedBytes) / CpuItems)} per item; features on but idle: {Range(IdleFeatures.Select(f => results.TimeRatio(results.Find(Advanced, f))))} time, {Range(IdleFeatures.Select(f => results.AllocationRatio(results.Find(Advanced, f))))} alloc; adaptive {Format.Ratio(results.TimeRatio(results.Find(Advanced, "With AdaptiveConcurrency (4 → 16)")))} × the best fixed limit",
            "breaker 1.79 alloc; adaptive 3.53 × slower",
            $"`Parallel.ForEachAsync` at DOP 1–128: {Range(rows.Select(r => r.Ours?.MeanNs / r.Peer?.MeanNs))}; retry against Polly v8: {Format.Ratio(results.Find(Errors, "Retries, 10% transient, Backoff.Constant")?.MeanNs / results.Find(Errors, "Polly v8 retry in Parallel.ForEachAsync, Constant")?.MeanNs)} time")
        ;
    }

    private static IEnumerable<TargetResult> Targets(RunResults results)
    {
        var sequential = results.Find(Cpu, "Sequential loop");
        var overheads = CpuOperators.Select(name => (Name: name, Case: results.Find(Cpu, name))).ToList();
        double? Time(MeasuredCase? c) => (c?.MeanNs - sequential?.MeanNs) / CpuItems;
        double? Bytes(MeasuredCase? c) => (double?)(c?.AllocatedBytes - sequential?.AllocatedBytes) / CpuItems;
        yield return TargetResult.AtMost(
            "CPU-light items ≤ 1 µs overhead each (time above the sequential loop / 1,000)",
            overheads.Max(o => Time(o.Case)),
            1_000,
            string.Join("; ", overheads.Select(o => $"{Short(o.Name)} {Format.Time(Time(o.Case))}")));
        yield return TargetResult.AtMost(
            "CPU-light items ≤ 150 B overhead each",
            overheads.Max(o => Bytes(o.Case)),
            150,
            string.Join("; ", overheads.Select(o => $"{Short(o.Name)} {(Bytes(o.Case) is { } b ? b.ToString("0.#", CultureInfo.InvariantCulture) + " B" : "n/a")}")));

        var rows = ScalingRows(results).ToList();
        var vsIdeal = rows.Select(r => r.Ours?.MeanNs / r.Ideal).ToList();
        yield return TargetResult.AtMost(
            "1 ms I/O items ≤ 1.05 × ceil(n/DOP) × the measured delay, at every DOP",
            vsIdeal.Any(v => v is null) ? null : vsIdeal.Max(),
            1.05,
            $"{Range(vsIdeal)} (DOP 1 to 128; one `Task.Delay(1)` lasts {Format.Time(Tick(results))} here)");
        var vsPeer = rows.Select(r => r.Ours?.MeanNs / r.Peer?.MeanNs).ToList();
        yield return TargetResult.AtMost(
            "… and no slower than `Parallel.ForEachAsync` (a tie within 2% counts)",
            vsPeer.Any(v => v is null) ? null : vsPeer.Max(),
            1.02,
            $"Millrace / Parallel.ForEachAsync {Range(vsPeer)}");

        var idle = IdleFeatures.Select(f => (Name: f, Case: results.Find(Advanced, f))).ToList();
        yield return TargetResult.AtMost(
            "a feature on but not triggered costs ≤ 1% time",
            idle.Max(f => results.TimeRatio(f.Case)),
            1.01,
            string.Join(", ", idle.Select(f => $"{Short(f.Name)} {Format.Ratio(results.TimeRatio(f.Case))}")));
        yield return TargetResult.AtMost(
            "… and ≤ 1.2 × allocation (seed's breaker: 1.79)",
            idle.Max(f => results.AllocationRatio(f.Case)),
            1.2,
            string.Join(", ", idle.Select(f => $"{Short(f.Name)} {Format.Ratio(results.AllocationRatio(f.Case))}")));
        var adaptive = results.Find(Advanced, "With AdaptiveConcurrency (4 → 16)");
        yield return TargetResult.AtMost(
            "adaptive concurrency within 1.10 × the best fixed limit (seed: 3.53)",
            results.TimeRatio(adaptive),
            1.10,
            $"{Format.Ratio(results.TimeRatio(adaptive))} ({Format.Time(adaptive?.MeanNs)}), {Format.Ratio(results.AllocationRatio(adaptive))} allocation");
        var fixedLimits = CongestedFixed.Select(f => results.Find(Advanced, f)).Where(c => c is not null).ToList();
        var bestFixed = fixedLimits.MinBy(c => c!.MeanNs);
        var congested = results.Find(Advanced, "Congested service, AdaptiveConcurrency (4 → 128)");
        yield return TargetResult.AtMost(
            "congested service (10 ms to 16 at once, 10 ms × (c/16)² beyond): adaptive within 10% of the best fixed limit's throughput",
            congested?.MeanNs / bestFixed?.MeanNs,
            1.10,
            $"{Format.Ratio(congested?.MeanNs / bestFixed?.MeanNs)} ({Format.Time(congested?.MeanNs)} against {Format.Time(bestFixed?.MeanNs)}); mean call latency in the run's log");
        var retries = RetryRows(results).Take(2).Select(r => (r.Label, Ratio: r.Measured?.MeanNs / r.Theoretical)).ToList();
        yield return TargetResult.AtMost(
            "10% transient failures within 1.1 × the theoretical backoff time",
            retries.Any(r => r.Ratio is null) ? null : retries.Max(r => r.Ratio),
            1.10,
            string.Join(", ", retries.Select(r => $"{r.Label} {Format.Ratio(r.Ratio)}")));
    }

    private static string Short(string method) => method.Replace("Millrace ", string.Empty, StringComparison.Ordinal)
        .Replace("With ", string.Empty, StringComparison.Ordinal);
}

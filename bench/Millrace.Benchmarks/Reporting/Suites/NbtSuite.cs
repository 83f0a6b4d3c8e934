using System.Globalization;
using System.Text;
using Millrace.Benchmarks.Nbt;

namespace Millrace.Benchmarks.Reporting.Suites;

/// <summary>NBT (issue 4): <c>../shared/seeds/nbt.md</c>.</summary>
internal static class NbtSuite
{
    private const string Class = nameof(NbtBenchmarks);
    private const string Typed = nameof(NbtTypedBenchmarks);
    private const string TreeRead = "Deserialize (tree)";
    private const string Write = "Serialize (reused writer)";
    private const string Skim = "Pull reader skim (Read + Skip)";
    private const string Borrowed = "Borrowed document (parse + dispose)";
    private const string Floor = "Floor: bare walk of every tag (no checks)";
    private const double MiB = 1024 * 1024;
    private static IReadOnlyList<string> Shapes => NbtBenchmarkData.Shapes;

    // Rates of whole files, in MiB/s as simdnbt publishes them: its README's figures for complex_player.dat.
    private static readonly string[] RateShapes = ["bigtest", "player", "items", NbtBenchmarkData.ComplexPlayer, NbtBenchmarkData.Hypixel];
    private static readonly Lazy<Dictionary<string, (int Bytes, long Retained)>> Sizes = new(MeasureSizes);

    public static BenchmarkSuite Create() => new()
    {
        Name = "nbt",
        Title = "NBT",
        Benchmarks = [typeof(NbtBenchmarks), typeof(NbtTypedBenchmarks)],
        IsMillrace = _ => true,
        Unavailable =
        [
            new UnavailablePeer("fNbt", "not served by the registry mirror (docs/dependencies.md); timed by hand beside Millrace"),
            new UnavailablePeer("SharpNBT", "not served by the registry mirror (docs/dependencies.md)"),
        ],
        Targets = Targets,
        Headline = results => new Headline(
            $"bigtest: read {Format.Time(results.Find(Class, TreeRead, "bigtest")?.MeanNs)}, write {Format.Time(results.Find(Class, Write, "bigtest")?.MeanNs)} and {Format.Bytes(results.Find(Class, Write, "bigtest")?.AllocatedBytes)}, skim {SkimRate(results)}; tree reads allocate {TreeAllocationRange(results)} × the tree; generated typed reads {TypedSpeedup(results)}× faster than tree reads",
            "serialize simple 703.5 ns / 1,544 B",
            "fNbt (hand-run 2026-11-28): read 1.77–3.28×, write 1.86–4.52×, pull 2.30–4.20× its speed; simdnbt 0.9.0 (hand-run): tree read 1.37×, write 0.69×, borrowed 0.97–1.03×"),
        Sections = new Dictionary<string, Func<RunResults, string>> { ["sizes"] = SizesTable, ["throughput"] = ThroughputTable },
        Values = new Dictionary<string, Func<RunResults, string>>
        {
            ["typed-speedup"] = TypedSpeedup,
            ["floor-rate"] = results => RateText(Rate(results, Floor, NbtBenchmarkData.ComplexPlayer)),
            ["skim-of-floor"] = results => OfFloor(results, Skim),
            ["borrowed-of-floor"] = results => OfFloor(results, Borrowed),
        },
    };

    private static Dictionary<string, (int Bytes, long Retained)> MeasureSizes() =>
        Shapes.ToDictionary(shape => shape, shape =>
        {
            var benchmark = new NbtBenchmarks { Shape = shape };
            benchmark.Setup();
            return (Bytes: benchmark.EncodedBytes, Retained: benchmark.RetainedTreeBytes);
        });

    private static double? TreeAllocationRatio(RunResults results, string shape) =>
        (double?)results.Find(Class, TreeRead, shape)?.AllocatedBytes / Sizes.Value[shape].Retained;

    private static string TreeAllocationRange(RunResults results)
    {
        var ratios = Shapes.Select(s => TreeAllocationRatio(results, s)).Where(r => r is not null).Select(r => r!.Value).ToList();
        return ratios.Count == 0 ? "n/a" : $"{Format.Ratio(ratios.Min())}–{Format.Ratio(ratios.Max())}";
    }

    private static double? SkimBytesPerSecond(RunResults results) =>
        results.Find(Class, Skim, "bigtest")?.MeanNs is { } ns ? Sizes.Value["bigtest"].Bytes / (ns * 1e-9) : null;

    private static string SkimRate(RunResults results) =>
        SkimBytesPerSecond(results) is { } rate ? (rate / 1e9).ToString("0.0", CultureInfo.InvariantCulture) + " GB/s" : "n/a";

    private static double? TypedRatio(RunResults results) =>
        results.Find(Typed, "Read tree")?.MeanNs / results.Find(Typed, "Read typed (generated)")?.MeanNs;

    private static string TypedSpeedup(RunResults results) => Format.Ratio(TypedRatio(results));

    private static string SizesTable(RunResults results)
    {
        var text = new StringBuilder("| shape | bytes | retained tree | tree read allocates | ratio |\n|---|---:|---:|---:|---:|\n");
        foreach (var shape in Shapes)
        {
            var (bytes, retained) = Sizes.Value[shape];
            text.Append(CultureInfo.InvariantCulture, $"| {shape} | {Format.Count(bytes)} | {Format.Count(retained)} B | {Format.Count(results.Find(Class, TreeRead, shape)?.AllocatedBytes ?? 0)} B | {Format.Ratio(TreeAllocationRatio(results, shape))} |\n");
        }

        return text.ToString().TrimEnd('\n');
    }

    // The rate of one benchmark over a shape's bytes, in MiB/s; null when it did not run.
    private static double? Rate(RunResults results, string method, string shape) =>
        Sizes.Value.TryGetValue(shape, out var size) && results.Find(Class, method, shape)?.MeanNs is { } ns ? size.Bytes / MiB / (ns * 1e-9) : null;

    // A pass's speed on complex_player.dat as a share of the bare walk's.
    private static string OfFloor(RunResults results, string method) =>
        Rate(results, method, NbtBenchmarkData.ComplexPlayer) is { } rate && Rate(results, Floor, NbtBenchmarkData.ComplexPlayer) is { } floor
            ? Format.Ratio(rate / floor)
            : "n/a";

    private static string RateText(double? rate) => rate is { } value ? Format.Count(value) + " MiB/s" : "n/a";

    private static string ThroughputTable(RunResults results)
    {
        var text = new StringBuilder("| input | bytes | tree read | write (reused writer) | pull reader skim | borrowed document | floor: bare walk, no checks |\n|---|---:|---:|---:|---:|---:|---:|\n");
        foreach (var shape in RateShapes)
        {
            text.Append(CultureInfo.InvariantCulture, $"| {shape} | {Format.Count(Sizes.Value[shape].Bytes)} | {RateText(Rate(results, TreeRead, shape))} | {RateText(Rate(results, Write, shape))} | {RateText(Rate(results, Skim, shape))} | {RateText(Rate(results, Borrowed, shape))} | {RateText(Rate(results, Floor, shape))} |\n");
        }

        text.Append("| simdnbt::owned on complex_player.dat (its README; another machine, Rust) | 3,380 | 828 MiB/s | 2,727 MiB/s (2.6633 GiB/s) | | | |\n");
        text.Append("| simdnbt::borrow on complex_player.dat (its README; lazy: decodes on demand) | 3,380 | | 2,481 MiB/s (2.4228 GiB/s) | | 4,403 MiB/s (4.3 GiB/s) | |\n");
        return text.ToString().TrimEnd('\n');
    }

    // Issue 45's targets. The peers' rows are hand runs (simdnbt is Rust; fNbt is not served by the mirror), each timed
    // beside Millrace in one sitting on this machine and written up in the template's hand-run section: their figures
    // are that section's, the lowest ratio of the run, not this run's.
    private const string HandRun = "hand-run 2026-11-28, see 'Side by side'";

    private static IEnumerable<TargetResult> Issue45Targets(RunResults results)
    {
        yield return TargetResult.AtLeast("issue 45: write ≥ 1.2× simdnbt 0.9.0's into a reused buffer (complex_player.dat)", 0.69, 1.2, $"0.69–0.71× (1,459–1,511 MiB/s against 2,129–2,142; {HandRun})");
        yield return TargetResult.AtLeast("issue 45: tree read ≥ 1.3× simdnbt's owned read (complex_player.dat)", 1.37, 1.3, $"1.37–1.40× (434–440 MiB/s against 314–317; {HandRun})");
        yield return TargetResult.AtLeast("issue 45: borrowed document ≥ 2.0× simdnbt's borrowed read (complex_player.dat)", 0.97, 2.0, $"0.97–1.03× (3,021–3,195 MiB/s against 3,102–3,127; {HandRun})");
        yield return TargetResult.AtLeast("issue 45: every operation (read, write, pull every value) ≥ 1.5× fNbt's on six files", 1.77, 1.5, $"1.77–4.52× (the lowest: bigtest's read; hypixel.nbt's write 1.86×; {HandRun})");

        // Both passes walk every tag, and more: the bare walk shows how fast that part alone goes here.
        var floor = Rate(results, Floor, NbtBenchmarkData.ComplexPlayer);
        foreach (var (name, method) in new[] { ("pull-reader skim", Skim), ("borrowed parse", Borrowed) })
        {
            var rate = Rate(results, method, NbtBenchmarkData.ComplexPlayer);
            yield return TargetResult.AtLeast(
                $"issue 45: {name} ≥ 0.8× the bare walk's throughput (complex_player.dat)",
                rate / floor,
                0.8,
                $"{OfFloor(results, method)} ({RateText(rate)} against {RateText(floor)})");
        }

        yield return TreeAllocationTarget(results, "issues 16 and 45: tree reads allocating ≤ 1.1× the retained tree", 1.1);
    }

    // The most a tree read allocates against the tree it returns, over every shape; null when a shape did not run.
    private static TargetResult TreeAllocationTarget(RunResults results, string target, double limit)
    {
        var ratios = Shapes.Select(s => TreeAllocationRatio(results, s)).ToList();
        return TargetResult.AtMost(target, ratios.Any(r => r is null) ? null : ratios.Max(), limit, TreeAllocationRange(results));
    }

    private static IEnumerable<TargetResult> Targets(RunResults results)
    {
        var read = results.Find(Class, TreeRead, "bigtest");
        var write = results.Find(Class, Write, "bigtest");
        yield return TargetResult.AtLeast(
            "read and write of bigtest ≥ 3× faster than fNbt",
            1.77,
            3,
            $"read 1.77×, write 2.69× ({HandRun}); this run: Millrace reads bigtest in {Format.Time(read?.MeanNs)} and writes it in {Format.Time(write?.MeanNs)}");
        var writes = Shapes.Select(s => results.Find(Class, Write, s)).ToList();
        yield return TargetResult.AtMost(
            "0 B allocated per serialization into a reused writer",
            writes.Any(w => w is null) ? null : writes.Max(w => w!.AllocatedBytes ?? 0),
            0,
            $"at most {Format.Bytes(writes.Max(w => w?.AllocatedBytes ?? 0))} over every shape (also a unit test)");
        yield return TreeAllocationTarget(results, "tree reads allocating ≤ 1.5× the retained tree", 1.5);
        yield return TargetResult.AtLeast(
            "pull reader skimming bigtest ≥ 1 GB/s",
            SkimBytesPerSecond(results),
            1e9,
            $"{Format.Count(Sizes.Value["bigtest"].Bytes)} B in {Format.Time(results.Find(Class, Skim, "bigtest")?.MeanNs)} = {SkimRate(results)}");
        var tree = results.Find(Typed, "Read tree");
        var typed = results.Find(Typed, "Read typed (generated)");
        yield return TargetResult.AtLeast(
            "source-generated typed reads of the player file ≥ 2× faster than tree reads",
            TypedRatio(results),
            2,
            $"{TypedSpeedup(results)}× ({Format.Time(typed?.MeanNs)} vs {Format.Time(tree?.MeanNs)}), {Format.Ratio(results.AllocationRatio(typed))}× the allocation");
        foreach (var target in Issue45Targets(results))
        {
            yield return target;
        }
    }
}

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
            new UnavailablePeer("fNbt", "not served by the registry mirror (docs/dependencies.md)"),
            new UnavailablePeer("SharpNBT", "not served by the registry mirror (docs/dependencies.md)"),
        ],
        Targets = Targets,
        Headline = results => new Headline(
            $"bigtest: read {Format.Time(results.Find(Class, TreeRead, "bigtest")?.MeanNs)}, write {Format.Time(results.Find(Class, Write, "bigtest")?.MeanNs)} and {Format.Bytes(results.Find(Class, Write, "bigtest")?.AllocatedBytes)}, skim {SkimRate(results)}; tree reads allocate {TreeAllocationRange(results)} × the tree; generated typed reads {TypedSpeedup(results)}× faster than tree reads",
            "serialize simple 703.5 ns / 1,544 B",
            "fNbt and SharpNBT not served: not measurable here"),
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

    private static IEnumerable<TargetResult> Issue16Targets(RunResults results)
    {
        const string Shape = NbtBenchmarkData.ComplexPlayer;
        var read = Rate(results, TreeRead, Shape);
        yield return TargetResult.AtLeast("issue 16: complex_player.dat tree read ≥ 800 MiB/s (simdnbt::owned 828 MiB/s on its machine)", read, 800, RateText(read));
        var write = Rate(results, Write, Shape);
        yield return TargetResult.AtLeast("issue 16: complex_player.dat write ≥ 2 GiB/s (simdnbt 2.66 GiB/s)", write, 2048, RateText(write));
        // Both passes walk every tag, and more: the bare walk shows how fast that part alone goes here.
        var floor = $"; a bare walk of every tag with no checks: {RateText(Rate(results, Floor, Shape))}";
        var skim = Rate(results, Skim, Shape);
        yield return TargetResult.AtLeast("issue 16: complex_player.dat pull reader ≥ 3 GiB/s", skim, 3072, RateText(skim) + floor);
        var borrowed = Rate(results, Borrowed, Shape);
        yield return TargetResult.AtLeast("issue 16: complex_player.dat borrowed document (NbtBorrowedDocument: keeps the input, decodes on demand) ≥ 4 GiB/s (simdnbt::borrow 4.3 GiB/s on its machine)", borrowed, 4096, RateText(borrowed) + floor);

        yield return TreeAllocationTarget(results, "issue 16: tree reads allocating ≤ 1.1× the retained tree", 1.1);
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
        yield return new TargetResult(
            "read and write of bigtest ≥ 3× faster than fNbt",
            $"fNbt not served; Millrace reads bigtest in {Format.Time(read?.MeanNs)} and writes it in {Format.Time(write?.MeanNs)}",
            Verdict.NotMeasured);
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
        foreach (var target in Issue16Targets(results))
        {
            yield return target;
        }
    }
}

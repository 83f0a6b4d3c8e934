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
    private static readonly string[] Shapes = ["simple", "complex", "deep", "large-array", "bigtest", "player", "items"];
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
        Sections = new Dictionary<string, Func<RunResults, string>> { ["sizes"] = SizesTable },
        Values = new Dictionary<string, Func<RunResults, string>> { ["typed-speedup"] = TypedSpeedup },
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
        var ratios = Shapes.Select(s => TreeAllocationRatio(results, s)).ToList();
        yield return TargetResult.AtMost(
            "tree reads allocating ≤ 1.5× the retained tree",
            ratios.Any(r => r is null) ? null : ratios.Max(),
            1.5,
            TreeAllocationRange(results));
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
    }
}

using System.Globalization;
using System.Text;
using Millrace.Benchmarks.Compact;

namespace Millrace.Benchmarks.Reporting.Suites;

/// <summary>Compact schema encoding (issue 5): <c>../shared/seeds/compact-schema-encoding.md</c>.</summary>
internal static class CompactSuite
{
    private const string Class = nameof(CompactBenchmarks);
    private static readonly (string Case, string Label, string SeedPlain, string SeedGzip, string SeedEncoder)[] Cases =
    [
        ("user-full", "Single user (full)", "478", "332", "289"),
        ("user-sparse", "Single user (sparse)", "125", "111", "34"),
        ("product", "Single product", "349", "254", "196"),
        ("large-50/50", "Large struct (50/50 fields)", "1,279", "301", "136"),
        ("large-10/50", "Large struct (10/50 fields)", "879", "225", "64"),
        ("users-100", "100 full users (one collection frame)", "—", "—", "—"),
    ];

    private static readonly string[] SingleRecords = ["user-full", "user-sparse", "product", "large-50/50", "large-10/50"];
    private static readonly Lazy<Dictionary<string, CompactSizes>> Sizes = new(MeasureSizes);

    public static BenchmarkSuite Create() => new()
    {
        Name = "compact",
        Title = "Compact encoding",
        Benchmarks = [typeof(CompactBenchmarks)],
        Targets = Targets,
        Headline = results => new Headline(
            $"sizes with `auto`: full user {Sizes.Value["user-full"].CompactAuto} B, product {Sizes.Value["product"].CompactAuto} B, large 10/50 {Sizes.Value["large-10/50"].CompactAuto} B, large 50/50 {Sizes.Value["large-50/50"].CompactAuto} B; sparse user {Sizes.Value["user-sparse"].Compact} B raw; decode {Range(results, "Millrace compact deserialize", "STJ (source generated) deserialize", invert: true)}× faster than STJ",
            "289 / 196 / 64 / 136 B; sparse 34 B",
            $"decode against Google.Protobuf: {Range(results, "Millrace compact deserialize", "Google.Protobuf deserialize", invert: false)}× its time; encode {Range(results, "Millrace compact serialize", "Google.Protobuf serialize", invert: false)}×; against MemoryPack: decode {Range(results, "Millrace compact deserialize", "MemoryPack deserialize", invert: false)}×, encode {Range(results, "Millrace compact serialize", "MemoryPack serialize", invert: false)}× (version-tolerant: decode {Range(results, "Millrace compact deserialize", "MemoryPack (version-tolerant) deserialize", invert: false)}×, encode {Range(results, "Millrace compact serialize", "MemoryPack (version-tolerant) serialize", invert: false)}×); MessagePack: decode {Range(results, "Millrace compact deserialize", "MessagePack deserialize", invert: false)}×, encode {Range(results, "Millrace compact serialize", "MessagePack serialize", invert: false)}×"),
        Sections = new Dictionary<string, Func<RunResults, string>> { ["sizes"] = SizesTable },
        Values = new Dictionary<string, Func<RunResults, string>>
        {
            ["decode-vs-stj"] = results => Range(results, "Millrace compact deserialize", "STJ (source generated) deserialize", invert: true),
            ["decode-vs-protobuf"] = results => Range(results, "Millrace compact deserialize", "Google.Protobuf deserialize", invert: false),
            ["encode-vs-stj"] = results => Range(results, "Millrace compact serialize", "STJ (source generated) serialize", invert: false),
            ["encode-vs-protobuf"] = results => Range(results, "Millrace compact serialize", "Google.Protobuf serialize", invert: false),
            ["encode-vs-memorypack"] = results => Range(results, "Millrace compact serialize", "MemoryPack serialize", invert: false),
            ["decode-vs-memorypack"] = results => Range(results, "Millrace compact deserialize", "MemoryPack deserialize", invert: false),
        },
    };

    private static Dictionary<string, CompactSizes> MeasureSizes() =>
        Cases.ToDictionary(c => c.Case, c =>
        {
            var benchmark = new CompactBenchmarks { Case = c.Case };
            benchmark.Setup();
            return benchmark.Sizes;
        });

    /// <summary>The range over every case of one method's time over another's (or the inverse: a speed-up).</summary>
    private static string Range(RunResults results, string method, string other, bool invert)
    {
        var ratios = Cases.Select(c => (results.Find(Class, method, c.Case)?.MeanNs, results.Find(Class, other, c.Case)?.MeanNs))
            .Where(p => p.Item1 is not null && p.Item2 is not null)
            .Select(p => invert ? p.Item2!.Value / p.Item1!.Value : p.Item1!.Value / p.Item2!.Value)
            .ToList();
        return ratios.Count == 0 ? "n/a" : $"{Format.Ratio(ratios.Min())}–{Format.Ratio(ratios.Max())}";
    }

    private static readonly string[] Directions = ["serialize", "deserialize"];

    // The largest of our time over the peer's, encode and decode, over every case: the row that decides the target.
    private static double? WorstRatio(RunResults results, string peer)
    {
        var ratios = Directions
            .SelectMany(m => Cases.Select(c => (Ours: results.Find(Class, $"Millrace compact {m}", c.Case)?.MeanNs, Theirs: results.Find(Class, $"{peer} {m}", c.Case)?.MeanNs)))
            .Where(p => p.Ours is not null && p.Theirs is not null)
            .Select(p => p.Ours!.Value / p.Theirs!.Value)
            .ToList();
        return ratios.Count == 0 ? null : ratios.Max();
    }

    private static string SizesTable(RunResults results)
    {
        var text = new StringBuilder(
            "| Scenario | JSON | JSON+gzip | Google.Protobuf | protobuf-net | MessagePack | MessagePack+LZ4 | MemoryPack | MemoryPack (tolerant) | Millrace compact | compact + auto | auto + zstd dictionary | seed: uncompressed | seed: plain+gzip | seed encoder |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        foreach (var (name, label, plain, gzip, encoder) in Cases)
        {
            var s = Sizes.Value[name];
            text.Append(CultureInfo.InvariantCulture, $"| {label} | {Format.Count(s.Json)} | {Format.Count(s.JsonGzip)} | {Format.Count(s.Protobuf)} | {Format.Count(s.ProtobufNet)} | {Format.Count(s.MessagePack)} | {Format.Count(s.MessagePackLz4)} | {Format.Count(s.MemoryPack)} | {Format.Count(s.MemoryPackTolerant)} | {Format.Count(s.Compact)} | **{Format.Count(s.CompactAuto)}** | {Format.Count(s.CompactAutoWithDictionary)} | {plain} | {gzip} | {encoder} |\n");
        }

        return text.ToString().TrimEnd('\n');
    }

    private static IEnumerable<TargetResult> Targets(RunResults results)
    {
        var sizes = Sizes.Value;
        yield return TargetResult.AtMost("sparse user smaller than the seed's 34 B with no compression", sizes["user-sparse"].Compact, 33, $"{sizes["user-sparse"].Compact} B");
        foreach (var (name, label, limit) in new[] { ("user-full", "full user", 289), ("product", "product", 196), ("large-10/50", "large 10/50", 64), ("large-50/50", "large 50/50", 136) })
        {
            var s = sizes[name];
            yield return TargetResult.AtMost($"{label} ≤ {limit} B with `auto`", s.CompactAuto, limit, $"{s.CompactAuto} B (deflate {s.CompactDeflate} B, Brotli {s.CompactBrotli} B, zstd {s.CompactZstd} B; with a trained zstd dictionary {s.CompactAutoWithDictionary} B)");
        }

        var large = sizes["large-50/50"];
        yield return TargetResult.AtMost("ours: large 50/50 ≤ 136 B with `auto` and a zstd dictionary trained on 1,000 other records", large.CompactAutoWithDictionary, 136, $"{large.CompactAutoWithDictionary} B");

        yield return TargetResult.AtMost(
            "encode and decode faster than MessagePack (int keys), every row",
            WorstRatio(results, "MessagePack"),
            1.0,
            $"encode {Range(results, "Millrace compact serialize", "MessagePack serialize", invert: false)}× MessagePack's time, decode {Range(results, "Millrace compact deserialize", "MessagePack deserialize", invert: false)}×");
        yield return TargetResult.AtMost(
            "issue 16: encode and decode at most 1.0× MemoryPack's version-tolerant mode, every row",
            WorstRatio(results, "MemoryPack (version-tolerant)"),
            1.0,
            $"encode {Range(results, "Millrace compact serialize", "MemoryPack (version-tolerant) serialize", invert: false)}×, decode {Range(results, "Millrace compact deserialize", "MemoryPack (version-tolerant) deserialize", invert: false)}×");
        yield return TargetResult.AtMost(
            "issue 16: sizes at most protobuf's bytes + the 3-byte frame header, every shape (uncompressed)",
            Cases.Max(c => (double?)(sizes[c.Case].Compact - sizes[c.Case].Protobuf)),
            3,
            string.Join("; ", Cases.Select(c => $"{c.Case} {sizes[c.Case].Compact} B vs {sizes[c.Case].Protobuf} B")));
        var memoryPack = new[] { ("serialize", "encode"), ("deserialize", "decode") }
            .SelectMany(m => Cases.Select(c => (Ours: results.Find(Class, $"Millrace compact {m.Item1}", c.Case)?.MeanNs, Theirs: results.Find(Class, $"MemoryPack {m.Item1}", c.Case)?.MeanNs)))
            .Where(p => p.Ours is not null && p.Theirs is not null)
            .Select(p => p.Ours!.Value / p.Theirs!.Value)
            .ToList();
        yield return TargetResult.AtMost(
            "issue 45: encode and decode at most 0.9× MemoryPack's default mode's time, every row",
            memoryPack.Count == 0 ? null : memoryPack.Max(),
            0.9,
            $"encode {Range(results, "Millrace compact serialize", "MemoryPack serialize", invert: false)}× MemoryPack's time, decode {Range(results, "Millrace compact deserialize", "MemoryPack deserialize", invert: false)}× (MemoryPack writes fixed-width fields with no keys: its bytes are larger, see the size table)");
        var encodes = SingleRecords.Select(c => results.Find(Class, "Millrace compact serialize", c)).ToList();
        var protobuf = results.Find(Class, "Google.Protobuf serialize", "user-full");
        yield return TargetResult.AtMost(
            "0 B allocated per encode of a record into a reused writer (seed: 7–36× plain)",
            encodes.Any(e => e is null) ? null : encodes.Max(e => e!.AllocatedBytes ?? 0),
            0,
            $"at most {Format.Bytes(encodes.Max(e => e?.AllocatedBytes ?? 0))} per single record (Google.Protobuf: {Format.Bytes(protobuf?.AllocatedBytes)}); {Format.Bytes(results.Find(Class, "Millrace compact serialize", "users-100")?.AllocatedBytes)} per 100-record collection frame");
    }
}

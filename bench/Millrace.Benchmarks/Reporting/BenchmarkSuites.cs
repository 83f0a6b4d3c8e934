using Millrace.Benchmarks.Reporting.Suites;

namespace Millrace.Benchmarks.Reporting;

/// <summary>Every report, in the order of the overview table.</summary>
internal static class BenchmarkSuites
{
    /// <summary>The suites: json, json-scan, base64, parallel, nbt, compact, worlds.</summary>
    public static IReadOnlyList<BenchmarkSuite> All { get; } =
        [JsonSuite.Create(), JsonScanSuite.Create(), Base64Suite.Create(), ParallelSuite.Create(), NbtSuite.Create(), CompactSuite.Create(), WorldsSuite.Create()];
}

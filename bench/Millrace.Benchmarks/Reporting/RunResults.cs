using BenchmarkDotNet.Reports;

namespace Millrace.Benchmarks.Reporting;

/// <summary>One benchmark case of a run: a method with its parameter values, and what was measured.</summary>
/// <param name="Class">The benchmark class's name.</param>
/// <param name="Method">The method's description as shown in the table, without BenchmarkDotNet's quotes.</param>
/// <param name="Parameters">The parameter values joined by commas, or empty.</param>
/// <param name="IsBaseline">Whether this is its table's baseline.</param>
/// <param name="MeanNs">The mean time per operation in nanoseconds, or null if the case did not run.</param>
/// <param name="AllocatedBytes">The bytes allocated per operation, or null if not measured.</param>
/// <param name="MedianNs">The median time per operation in nanoseconds, or null if the case did not run.</param>
/// <param name="StdDevNs">The standard deviation of the time per operation, or null if the case did not run.</param>
internal sealed record MeasuredCase(
    string Class,
    string Method,
    string Parameters,
    bool IsBaseline,
    double? MeanNs,
    long? AllocatedBytes,
    double? MedianNs = null,
    double? StdDevNs = null)
{
    /// <summary>Whether the case produced a measurement.</summary>
    public bool Ran => MeanNs is not null;
}

/// <summary>The measured cases of every summary of a run, looked up by class, method and parameters.</summary>
internal sealed class RunResults
{
    private readonly List<MeasuredCase> _cases = [];

    public RunResults(IEnumerable<Summary> summaries, bool quick)
    {
        Quick = quick;
        Summaries = [.. summaries];
        foreach (var summary in Summaries)
        {
            foreach (var benchmark in summary.BenchmarksCases)
            {
                var report = summary[benchmark];
                var descriptor = benchmark.Descriptor;
                var statistics = report?.ResultStatistics;
                _cases.Add(new MeasuredCase(
                    descriptor.Type.Name,
                    descriptor.WorkloadMethodDisplayInfo.Trim('\''),
                    string.Join(",", benchmark.Parameters.Items.Select(p => p.Value?.ToString())),
                    descriptor.Baseline,
                    statistics?.Mean,
                    statistics is null ? null : report!.GcStats.GetBytesAllocatedPerOperation(benchmark),
                    statistics?.Median,
                    statistics?.StandardDeviation));
            }
        }
    }

    /// <summary>Whether this was a dry run whose numbers mean nothing.</summary>
    public bool Quick { get; }

    /// <summary>The summaries, one per benchmark class.</summary>
    public IReadOnlyList<Summary> Summaries { get; }

    /// <summary>Every case of the run, in table order.</summary>
    public IReadOnlyList<MeasuredCase> Cases => _cases;

    /// <summary>The summary of one benchmark class, if it ran.</summary>
    public Summary? SummaryOf(string className) =>
        Summaries.FirstOrDefault(s => s.BenchmarksCases.Any(b => b.Descriptor.Type.Name == className));

    /// <summary>The case of a class, method and parameter values, if it ran.</summary>
    public MeasuredCase? Find(string className, string method, string parameters = "") =>
        _cases.FirstOrDefault(c => c.Class == className && c.Method == method && c.Parameters == parameters && c.Ran);

    /// <summary>The baseline of the table group a case belongs to (same class and parameters).</summary>
    public MeasuredCase? BaselineOf(MeasuredCase measured) =>
        _cases.FirstOrDefault(c => c.Class == measured.Class && c.Parameters == measured.Parameters && c.IsBaseline && c.Ran);

    /// <summary>A case's time over its baseline's, if both ran.</summary>
    public double? TimeRatio(MeasuredCase? measured) =>
        measured is null || BaselineOf(measured) is not { } baseline ? null : measured.MeanNs / baseline.MeanNs;

    /// <summary>A case's allocation over its baseline's, if both ran and the baseline allocates.</summary>
    public double? AllocationRatio(MeasuredCase? measured) =>
        measured is null || BaselineOf(measured) is not { AllocatedBytes: > 0 } baseline
            ? null
            : (double?)measured.AllocatedBytes / baseline.AllocatedBytes;
}

using System.Text;

namespace Millrace.Benchmarks.Reporting;

/// <summary>
/// Writes <c>README.md</c> beside the reports: one row per suite with its headline ratios against the seed and
/// the peers. Suites that did not run in this run keep the row they had.
/// </summary>
internal static class OverviewWriter
{
    /// <summary>Rewrites the overview in <paramref name="directory"/>.</summary>
    public static void Write(IReadOnlyList<BenchmarkSuite> all, IReadOnlyList<BenchmarkSuite> ran, RunResults results, string directory)
    {
        var path = Path.Combine(directory, "README.md");
        var previous = File.Exists(path) ? File.ReadAllLines(path) : [];
        var rows = new StringBuilder();
        rows.Append("| suite | report | Millrace, as ratios to the seed's baseline in the same run | the seed's own figures (another machine) | against the peers |\n");
        rows.Append("|---|---|---|---|---|\n");
        foreach (var suite in all)
        {
            var prefix = $"| {suite.Title} |";
            if (ran.Contains(suite))
            {
                var headline = suite.Headline(results);
                rows.Append($"{prefix} [{suite.Name}.md]({suite.Name}.md) | {headline.Ours} | {headline.Seed} | {headline.Peers} |\n");
            }
            else
            {
                rows.Append(previous.FirstOrDefault(line => line.StartsWith(prefix, StringComparison.Ordinal))
                    ?? $"{prefix} [{suite.Name}.md]({suite.Name}.md) | not run yet | | |").Append('\n');
            }
        }

        var overview = ReportWriter.Template("README").Replace("{{overview}}", rows.ToString().TrimEnd('\n'), StringComparison.Ordinal);
        File.WriteAllText(path, overview);
    }
}

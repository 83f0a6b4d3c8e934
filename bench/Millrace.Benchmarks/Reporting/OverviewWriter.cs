using System.Text;

namespace Millrace.Benchmarks.Reporting;

/// <summary>
/// Writes <c>README.md</c> beside the reports: one row per suite with its headline ratios against the seed and
/// the peers, then every target of every suite with where it stands. Suites that did not run in this run keep the rows
/// they had.
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

        var targets = new StringBuilder("| suite | target | measured | |\n|---|---|---|---|\n");
        foreach (var suite in all)
        {
            // Target rows start with the suite's name (its title starts the headline rows), so each keeps its own.
            var prefix = $"| [{suite.Name}]({suite.Name}.md) |";
            if (ran.Contains(suite))
            {
                foreach (var target in suite.Targets(results))
                {
                    targets.Append($"{prefix} {target.Target} | {target.Measured} | {ReportWriter.VerdictText(target.Verdict)} |\n");
                }
            }
            else
            {
                // A suite that did not run now: its report's own targets table, as that report's run judged them.
                foreach (var row in ReportTargetRows(Path.Combine(directory, suite.Name + ".md")))
                {
                    targets.Append(prefix).Append(row).Append('\n');
                }
            }
        }

        var overview = ReportWriter.Template("README")
            .Replace("{{overview}}", rows.ToString().TrimEnd('\n'), StringComparison.Ordinal)
            .Replace("{{targets}}", targets.ToString().TrimEnd('\n'), StringComparison.Ordinal);
        File.WriteAllText(path, overview);
    }

    // The rows of a report's targets table ("| target | measured | |"), each without its leading '|'.
    private static IEnumerable<string> ReportTargetRows(string report)
    {
        if (!File.Exists(report))
        {
            yield break;
        }

        var inTable = false;
        foreach (var line in File.ReadLines(report))
        {
            if (line.StartsWith("| target | measured |", StringComparison.Ordinal))
            {
                inTable = true;
                continue;
            }

            if (!inTable || line.StartsWith("|---", StringComparison.Ordinal))
            {
                continue;
            }

            if (!line.StartsWith('|'))
            {
                yield break;
            }

            yield return line[1..];
        }
    }
}

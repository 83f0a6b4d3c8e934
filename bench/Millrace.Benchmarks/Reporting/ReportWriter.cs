using System.Globalization;
using System.Reflection;
using System.Text;
using System.Text.RegularExpressions;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;

namespace Millrace.Benchmarks.Reporting;

/// <summary>
/// Writes a suite's report, <c>&lt;suite&gt;.md</c> and its charts, by expanding the tokens of the suite's
/// template with the run's measurements. Tokens: <c>{{environment}}</c>, <c>{{command}}</c>, <c>{{date}}</c>,
/// <c>{{table CLASS}}</c>, <c>{{targets}}</c>, <c>{{unavailable}}</c>, <c>{{section NAME}}</c>,
/// <c>{{value NAME}}</c>, and <c>{{mean|alloc|ratio|allocratio CLASS|METHOD|PARAMETERS}}</c>.
/// </summary>
internal static partial class ReportWriter
{
    /// <summary>Writes the report of <paramref name="suite"/> into <paramref name="directory"/>.</summary>
    public static void Write(BenchmarkSuite suite, RunResults results, string directory)
    {
        Directory.CreateDirectory(Path.Combine(directory, "charts"));
        var template = Template(suite.Name);
        var report = Token().Replace(template, match => Expand(suite, results, directory, match.Groups[1].Value, match.Groups[2].Value));
        if (results.Quick)
        {
            var firstLineEnd = report.IndexOf('\n', StringComparison.Ordinal) + 1;
            report = report.Insert(firstLineEnd, "\n> **Dry run (`--quick`)**: every benchmark ran once to prove that it runs; these numbers mean nothing.\n");
        }

        File.WriteAllText(Path.Combine(directory, suite.Name + ".md"), report);
    }

    /// <summary>The text of an embedded template.</summary>
    public static string Template(string name)
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream($"Templates.{name}.md")
            ?? throw new InvalidOperationException($"No report template named '{name}'.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd().ReplaceLineEndings("\n");
    }

    private static string Expand(BenchmarkSuite suite, RunResults results, string directory, string token, string argument)
    {
        var parts = argument.Split('|');
        return token switch
        {
            "environment" => Environment(results),
            "command" => Command(suite),
            "date" => DateTime.UtcNow.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
            "table" => Table(suite, results, directory, argument),
            "targets" => Targets(suite, results),
            "unavailable" => Unavailable(suite, results),
            "section" => suite.Sections[argument](results),
            "value" => suite.Values[argument](results),
            "mean" => Format.Time(Case(results, parts)?.MeanNs),
            "alloc" => Format.Bytes(Case(results, parts)?.AllocatedBytes),
            "ratio" => Format.Ratio(results.TimeRatio(Case(results, parts))),
            "allocratio" => Format.Ratio(results.AllocationRatio(Case(results, parts))),
            _ => throw new InvalidOperationException($"Unknown report token '{token}' in the {suite.Name} template."),
        };
    }

    private static MeasuredCase? Case(RunResults results, string[] parts) =>
        results.Find(parts[0], parts[1], parts.Length > 2 ? parts[2] : string.Empty);

    private static string Environment(RunResults results)
    {
        var summary = results.Summaries.Count > 0 ? results.Summaries[0] : null;
        if (summary is null)
        {
            return "(no benchmark ran)";
        }

        var lines = Exported(summary);
        var start = Array.IndexOf(lines, "```");
        var end = Array.IndexOf(lines, "```", start + 1);
        return string.Join('\n', lines[start..(end + 1)]);
    }

    private static string Command(BenchmarkSuite suite) =>
        $"""
        ```sh
        bench/report.sh {suite.Name}
        # the same: dotnet run -c Release --project bench/Millrace.Benchmarks -- report {suite.Name}
        ```

        It runs {string.Join(", ", suite.Benchmarks.Select(t => $"`{t.Name}`"))} with WarmupCount={suite.WarmupCount} and
        IterationCount={suite.IterationCount}, then rewrites this file and its charts.
        """;

    private static string Table(BenchmarkSuite suite, RunResults results, string directory, string className)
    {
        if (results.SummaryOf(className) is not { } summary)
        {
            return $"`{className}` did not run.";
        }

        var chart = $"charts/{suite.Name}-{className}.svg";
        BenchmarkChart.Write(Path.Combine(directory, chart), [.. results.Cases.Where(c => c.Class == className)], suite.IsMillrace);
        // The exporter escapes quotes as HTML entities; quotes read better raw and render the same. Angle brackets
        // stay escaped, or GitHub would take "List<T>" for a tag.
        var table = Exported(summary).Where(line => line.StartsWith('|')).Select(line => line.Replace("&#39;", "'", StringComparison.Ordinal));
        return $"![{className}: mean time and allocation per method]({chart})\n\n"
            + "*Chart: grey is the baseline (dashed line at its value), blue is Millrace, orange the peers.*\n\n"
            + string.Join('\n', table);
    }

    private static string[] Exported(Summary summary)
    {
        var logger = new AccumulationLogger();
        MarkdownExporter.GitHub.ExportToLog(summary, logger);
        return logger.GetLog().ReplaceLineEndings("\n").Split('\n');
    }

    /// <summary>How a verdict reads in a report: met, not met (in bold), or not measurable here.</summary>
    public static string VerdictText(Verdict verdict) => verdict switch
    {
        Verdict.Met => "met",
        Verdict.NotMet => "**not met**",
        _ => "cannot be measured here",
    };

    private static string Targets(BenchmarkSuite suite, RunResults results)
    {
        var text = new StringBuilder("| target | measured | |\n|---|---|---|\n");
        foreach (var target in suite.Targets(results))
        {
            text.Append(CultureInfo.InvariantCulture, $"| {target.Target} | {target.Measured} | {VerdictText(target.Verdict)} |\n");
        }

        return text.Append(Noise(suite, results)).ToString().TrimEnd('\n');
    }

    /// <summary>
    /// Names the rows whose spread makes a mean-based verdict fragile (standard deviation over 10% of the mean: on
    /// this 2-core VM usually a few slow iterations), with their medians, so a reader can weigh the verdicts.
    /// </summary>
    private static string Noise(BenchmarkSuite suite, RunResults results)
    {
        var noisy = results.Cases
            .Where(c => suite.Benchmarks.Any(t => t.Name == c.Class) && c.Ran && c.StdDevNs > 0.10 * c.MeanNs)
            .ToList();
        if (noisy.Count == 0 || results.Quick)
        {
            return string.Empty;
        }

        var text = new StringBuilder("\nNoisy rows in this run (standard deviation over 10% of the mean); the verdicts above use means:\n\n");
        foreach (var c in noisy)
        {
            var parameters = c.Parameters.Length > 0 ? $" ({c.Parameters})" : string.Empty;
            text.Append(CultureInfo.InvariantCulture, $"- `{c.Class}` {c.Method}{parameters}: mean {Format.Time(c.MeanNs)} ± {Format.Time(c.StdDevNs)}, median {Format.Time(c.MedianNs)}\n");
        }

        return text.ToString();
    }

    private static string Unavailable(BenchmarkSuite suite, RunResults results)
    {
        var lines = suite.Unavailable.Select(p => $"- **{p.Peer}**: {p.Reason}; its rows cannot run here.")
            .Concat(results.Cases.Where(c => suite.Benchmarks.Any(t => t.Name == c.Class) && !c.Ran)
                .Select(c => $"- **{c.Class}: {c.Method}{(c.Parameters.Length > 0 ? $" ({c.Parameters})" : string.Empty)}** did not run in this run; see the BenchmarkDotNet log."))
            .ToList();
        return lines.Count == 0 ? "Every benchmark of this suite ran." : string.Join('\n', lines);
    }

    [GeneratedRegex(@"\{\{(\w+)(?: ([^}]*))?\}\}")]
    private static partial Regex Token();
}

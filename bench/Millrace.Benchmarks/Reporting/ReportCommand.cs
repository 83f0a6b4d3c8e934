using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace Millrace.Benchmarks.Reporting;

/// <summary>
/// <c>report [json|base64|parallel|nbt|compact|all ...] [--quick] [--out DIR]</c>: runs the suites' benchmarks
/// in one BenchmarkDotNet run and writes their reports, charts and the overview. <c>--quick</c> runs every
/// benchmark once in process (BenchmarkDotNet's dry job) and writes the reports under
/// <c>BenchmarkDotNet.Artifacts/quick-reports</c>, so CI proves that everything still runs without touching the
/// published numbers.
/// </summary>
internal static class ReportCommand
{
    private const string Usage = "usage: report [json|base64|parallel|nbt|compact|all ...] [--quick] [--out DIR]";

    /// <summary>Runs the command; 0 when every benchmark ran, 1 when one did not, 2 for a usage error.</summary>
    public static int Run(string[] args)
    {
        var names = new List<string>();
        var quick = false;
        string? output = null;
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--quick":
                    quick = true;
                    break;
                case "--out" when i + 1 < args.Length:
                    output = args[++i];
                    break;
                case "-h" or "--help":
                    Console.WriteLine(Usage);
                    return 0;
                default:
                    names.Add(args[i]);
                    break;
            }
        }

        var unknown = names.Where(n => n != "all" && BenchmarkSuites.All.All(s => s.Name != n)).ToList();
        if (unknown.Count > 0)
        {
            Console.Error.WriteLine($"unknown suite '{unknown[0]}'; {Usage}");
            return 2;
        }

        var selected = names.Count == 0 || names.Contains("all")
            ? BenchmarkSuites.All
            : [.. BenchmarkSuites.All.Where(s => names.Contains(s.Name))];
        var root = RepositoryRoot();
        var directory = Path.GetFullPath(output ?? Path.Combine(root, quick ? "BenchmarkDotNet.Artifacts/quick-reports" : "docs/benchmarks"));

        var runs = selected.SelectMany(suite => suite.Benchmarks.Select(type => BenchmarkConverter.TypeToBenchmarks(type, Config(suite, quick)))).ToArray();
        var results = new RunResults(BenchmarkRunner.Run(runs), quick);
        foreach (var suite in selected)
        {
            ReportWriter.Write(suite, results, directory);
        }

        OverviewWriter.Write(BenchmarkSuites.All, selected, results, directory);
        var missing = results.Cases.Where(c => !c.Ran).ToList();
        Console.WriteLine($"reports written to {directory}: {string.Join(", ", selected.Select(s => s.Name + ".md"))}, README.md");
        foreach (var failed in missing)
        {
            Console.Error.WriteLine($"did not run: {failed.Class}.{failed.Method} {failed.Parameters}");
        }

        return missing.Count == 0 ? 0 : 1;
    }

    private static ManualConfig Config(BenchmarkSuite suite, bool quick)
    {
        var job = quick
            ? Job.Dry.WithToolchain(InProcessEmitToolchain.Instance)
            : Job.Default.WithWarmupCount(suite.WarmupCount).WithIterationCount(suite.IterationCount);
        return ManualConfig.Create(DefaultConfig.Instance).AddJob(job);
    }

    private static string RepositoryRoot()
    {
        foreach (var start in new[] { Directory.GetCurrentDirectory(), AppContext.BaseDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "Millrace.slnx")))
                {
                    return directory.FullName;
                }
            }
        }

        return Directory.GetCurrentDirectory();
    }
}

namespace Millrace.Benchmarks.Reporting;

/// <summary>
/// One report: the benchmark classes that regenerate a seed's tables, how long to run them, and how to read the
/// results against the targets. The prose lives in <c>Templates/&lt;Name&gt;.md</c>.
/// </summary>
internal sealed record BenchmarkSuite
{
    /// <summary>The suite's name on the command line and its report's file name: json, base64, ...</summary>
    public required string Name { get; init; }

    /// <summary>The suite's title in the overview table.</summary>
    public required string Title { get; init; }

    /// <summary>The benchmark classes, in report order.</summary>
    public required IReadOnlyList<Type> Benchmarks { get; init; }

    /// <summary>Warm-up iterations of a full run.</summary>
    public int WarmupCount { get; init; } = 3;

    /// <summary>Measured iterations of a full run.</summary>
    public int IterationCount { get; init; } = 10;

    /// <summary>Whether a method (by its description) is Millrace's, as opposed to a peer's; colours the charts.</summary>
    public Func<string, bool> IsMillrace { get; init; } = method => method.Contains("Millrace", StringComparison.Ordinal);

    /// <summary>Peers whose rows cannot run here.</summary>
    public IReadOnlyList<UnavailablePeer> Unavailable { get; init; } = [];

    /// <summary>The targets, evaluated on a run.</summary>
    public required Func<RunResults, IEnumerable<TargetResult>> Targets { get; init; }

    /// <summary>The suite's row of the overview table.</summary>
    public required Func<RunResults, Headline> Headline { get; init; }

    /// <summary>Computed sections a template places with <c>{{section NAME}}</c>.</summary>
    public IReadOnlyDictionary<string, Func<RunResults, string>> Sections { get; init; } =
        new Dictionary<string, Func<RunResults, string>>();

    /// <summary>Values a template places with <c>{{value NAME}}</c>, for prose drawn from the numbers.</summary>
    public IReadOnlyDictionary<string, Func<RunResults, string>> Values { get; init; } =
        new Dictionary<string, Func<RunResults, string>>();
}

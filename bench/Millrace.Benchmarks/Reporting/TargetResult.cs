namespace Millrace.Benchmarks.Reporting;

/// <summary>Whether a measured value meets its target.</summary>
internal enum Verdict
{
    /// <summary>The target is met.</summary>
    Met,

    /// <summary>The target is not met.</summary>
    NotMet,

    /// <summary>The target cannot be measured here (a peer is not served, or a case did not run).</summary>
    NotMeasured,
}

/// <summary>One target of an issue, with the value this run measured.</summary>
/// <param name="Target">The target as the issue states it.</param>
/// <param name="Measured">What was measured, with the figures it was computed from.</param>
/// <param name="Verdict">Met, not met, or not measurable here.</param>
internal sealed record TargetResult(string Target, string Measured, Verdict Verdict)
{
    /// <summary>A target whose case did not run.</summary>
    public static TargetResult Missing(string target) => new(target, "the case did not run", Verdict.NotMeasured);

    /// <summary>A target met when <paramref name="value"/> is at most <paramref name="limit"/>.</summary>
    public static TargetResult AtMost(string target, double? value, double limit, string measured) =>
        value is null ? Missing(target) : new(target, measured, value <= limit ? Verdict.Met : Verdict.NotMet);

    /// <summary>A target met when <paramref name="value"/> is at least <paramref name="limit"/>.</summary>
    public static TargetResult AtLeast(string target, double? value, double limit, string measured) =>
        value is null ? Missing(target) : new(target, measured, value >= limit ? Verdict.Met : Verdict.NotMet);
}

/// <summary>A suite's row in the overview table.</summary>
/// <param name="Ours">Millrace's headline figures, as ratios to the seed's baseline in the same run.</param>
/// <param name="Seed">The seed's own published figures for the same rows (another machine).</param>
/// <param name="Peers">Millrace against the peer libraries a user would pick instead.</param>
internal sealed record Headline(string Ours, string Seed, string Peers);

/// <summary>A peer whose rows cannot run here, and why.</summary>
/// <param name="Peer">The library.</param>
/// <param name="Reason">Why it cannot run, e.g. its package is not served.</param>
internal sealed record UnavailablePeer(string Peer, string Reason);

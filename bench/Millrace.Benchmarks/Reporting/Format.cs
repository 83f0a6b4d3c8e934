using System.Globalization;

namespace Millrace.Benchmarks.Reporting;

/// <summary>Numbers as the reports print them: BenchmarkDotNet's units, invariant culture.</summary>
internal static class Format
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>A time in nanoseconds with the unit that keeps it between 1 and 1,000 where possible.</summary>
    public static string Time(double? nanoseconds) => nanoseconds switch
    {
        null => "n/a",
        < 1_000 => string.Create(Invariant, $"{nanoseconds:N2} ns"),
        < 1_000_000 => string.Create(Invariant, $"{nanoseconds / 1_000:N2} μs"),
        < 1_000_000_000 => string.Create(Invariant, $"{nanoseconds / 1_000_000:N2} ms"),
        _ => string.Create(Invariant, $"{nanoseconds / 1_000_000_000:N2} s"),
    };

    /// <summary>A byte count as BenchmarkDotNet prints allocations (1 KB = 1,024 B).</summary>
    public static string Bytes(long? bytes) => bytes switch
    {
        null => "n/a",
        < 1024 => string.Create(Invariant, $"{bytes:N0} B"),
        < 1024 * 1024 => string.Create(Invariant, $"{bytes / 1024.0:N2} KB"),
        _ => string.Create(Invariant, $"{bytes / (1024.0 * 1024.0):N2} MB"),
    };

    /// <summary>A ratio with two decimals.</summary>
    public static string Ratio(double? ratio) => ratio is null ? "n/a" : ratio.Value.ToString("0.00", Invariant);

    /// <summary>A whole number with thousands separators.</summary>
    public static string Count(double value) => value.ToString("N0", Invariant);
}

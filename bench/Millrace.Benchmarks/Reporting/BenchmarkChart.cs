using ScottPlot;
using SkiaSharp;

namespace Millrace.Benchmarks.Reporting;

/// <summary>
/// An SVG chart of one benchmark table: for each parameter group, the mean time and the allocation per method as
/// horizontal bars, Millrace in blue, peers in orange, the baseline in grey with a dashed line at its value.
/// </summary>
internal static class BenchmarkChart
{
    private const int Width = 1000;
    private const int GroupHeaderHeight = 70;
    private const int BarHeight = 24;
    private static readonly Color BaselineColor = Color.FromHex("#8C8C8C");
    private static readonly Color MillraceColor = Color.FromHex("#2B6CB0");
    private static readonly Color PeerColor = Color.FromHex("#E69F00");

    /// <summary>Writes the chart of <paramref name="cases"/> (one class, table order) to <paramref name="path"/>.</summary>
    public static void Write(string path, IReadOnlyList<MeasuredCase> cases, Func<string, bool> isMillrace)
    {
        var groups = cases.GroupBy(c => c.Parameters).Select(g => g.ToList()).ToList();
        var multiplot = new Multiplot();
        multiplot.AddPlots(groups.Count * 2);
        for (var g = 0; g < groups.Count; g++)
        {
            var group = groups[g];
            var title = group[0].Parameters.Length == 0 ? string.Empty : $"{group[0].Parameters}: ";
            Panel(multiplot.GetPlot(g * 2), group, title + "mean time", c => c.MeanNs, TimeScale, isMillrace, labels: true);
            Panel(multiplot.GetPlot((g * 2) + 1), group, title + "allocated", c => c.AllocatedBytes, ByteScale, isMillrace, labels: false);
        }

        multiplot.Layout = new ScottPlot.MultiplotLayouts.Grid(groups.Count, 2);
        var height = groups.Sum(group => GroupHeaderHeight + (BarHeight * group.Count));
        using var file = File.Create(path);
        using (var canvas = SKSvgCanvas.Create(new SKRect(0, 0, Width, height), file))
        {
            multiplot.Render(canvas, new PixelRect(0, Width, height, 0));
        }
    }

    private static void Panel(
        Plot plot,
        List<MeasuredCase> group,
        string title,
        Func<MeasuredCase, double?> value,
        Func<double, (double Divisor, string Unit)> scale,
        Func<string, bool> isMillrace,
        bool labels)
    {
        var largest = group.Max(c => value(c) ?? 0);
        var (divisor, unit) = scale(largest);
        var bars = new List<Bar>();
        var ticks = new ScottPlot.TickGenerators.NumericManual();
        for (var i = 0; i < group.Count; i++)
        {
            var measured = group[i];
            var position = group.Count - 1 - i;
            var scaled = (value(measured) ?? 0) / divisor;
            bars.Add(new Bar
            {
                Position = position,
                Value = scaled,
                FillColor = measured.IsBaseline ? BaselineColor : isMillrace(measured.Method) ? MillraceColor : PeerColor,
                LineWidth = 0,
                Label = value(measured) is null ? "did not run" : scaled.ToString(scaled >= 100 ? "N0" : "0.##", System.Globalization.CultureInfo.InvariantCulture),
                Orientation = Orientation.Horizontal,
            });
            ticks.AddMajor(position, labels ? Shorten(measured.Method) : string.Empty);
        }

        var barPlot = plot.Add.Bars(bars);
        barPlot.Horizontal = true;
        barPlot.ValueLabelStyle.FontSize = 11;
        if (group.FirstOrDefault(c => c.IsBaseline) is { } baseline && value(baseline) is { } baselineValue)
        {
            var line = plot.Add.VerticalLine(baselineValue / divisor);
            line.LinePattern = LinePattern.Dashed;
            line.Color = Color.FromHex("#333333");
            line.LineWidth = 1.5f;
        }

        plot.Axes.Left.TickGenerator = ticks;
        plot.Axes.Left.TickLabelStyle.FontSize = 11;
        plot.Axes.Bottom.TickLabelStyle.FontSize = 10;
        plot.Axes.Margins(left: 0, right: 0.25, bottom: 0.05, top: 0.05);
        plot.Axes.SetLimitsX(0, largest <= 0 ? 1 : largest / divisor * 1.25);
        plot.Title($"{title} ({unit})", size: 12);
        plot.Font.Set("DejaVu Sans");
    }

    private static string Shorten(string method) => method.Length <= 46 ? method : string.Concat(method.AsSpan(0, 45), "…");

    private static (double Divisor, string Unit) TimeScale(double largestNs) => largestNs switch
    {
        < 1_000 => (1, "ns"),
        < 1_000_000 => (1_000, "μs"),
        < 1_000_000_000 => (1_000_000, "ms"),
        _ => (1_000_000_000, "s"),
    };

    private static (double Divisor, string Unit) ByteScale(double largestBytes) => largestBytes switch
    {
        < 1024 => (1, "B"),
        < 1024 * 1024 => (1024, "KB"),
        _ => (1024 * 1024, "MB"),
    };
}

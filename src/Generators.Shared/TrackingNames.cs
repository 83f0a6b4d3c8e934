namespace Millrace.Generators;

/// <summary>The names of the generators' incremental steps, so tests can check what the pipeline caches.</summary>
internal static class TrackingNames
{
    /// <summary>The step that turns a target type into a model (or diagnostics).</summary>
    public const string Parse = "Parse";
}

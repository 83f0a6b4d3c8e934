
namespace Millrace.Generators;

/// <summary>
/// A parsed type, or the diagnostics that say why it cannot be generated. Shared by the Millrace generators; a value
/// (an equatable model and diagnostics as data), so the incremental pipeline caches it between keystrokes.
/// </summary>
/// <typeparam name="TModel">The generator's model of the type.</typeparam>
/// <param name="Model">The model, or <see langword="null"/> when the type cannot be generated.</param>
/// <param name="Diagnostics">Why not, or empty.</param>
internal sealed record GeneratorParseResult<TModel>(TModel? Model, EquatableArray<DiagnosticInfo> Diagnostics)
    where TModel : class, IEquatable<TModel>;

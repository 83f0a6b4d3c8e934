using System.Collections.Immutable;
using Microsoft.CodeAnalysis;

namespace Millrace.Generators;

/// <summary>A parsed type, or the diagnostics that say why it cannot be generated. Shared by the Millrace generators.</summary>
/// <typeparam name="TModel">The generator's model of the type.</typeparam>
internal sealed class GeneratorParseResult<TModel>
    where TModel : class
{
    public GeneratorParseResult(TModel? model, ImmutableArray<Diagnostic> diagnostics)
    {
        Model = model;
        Diagnostics = diagnostics;
    }

    public TModel? Model { get; }

    public ImmutableArray<Diagnostic> Diagnostics { get; }
}

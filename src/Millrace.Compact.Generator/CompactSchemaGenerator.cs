using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Millrace.Generators;

namespace Millrace.Compact.Generator;

/// <summary>Generates <c>ICompactSerializable&lt;T&gt;</c> for <c>[CompactSchema]</c> partial types.</summary>
[Generator(LanguageNames.CSharp)]
public sealed partial class CompactSchemaGenerator : IIncrementalGenerator
{
    private const string AttributeName = "Millrace.Compact.Serialization.CompactSchemaAttribute";

    /// <inheritdoc />
    public void Initialize(IncrementalGeneratorInitializationContext context)
    {
        var types = context.SyntaxProvider.ForAttributeWithMetadataName(
            AttributeName,
            static (node, _) => node is TypeDeclarationSyntax,
            static (syntax, cancellationToken) => Parse((INamedTypeSymbol)syntax.TargetSymbol, (TypeDeclarationSyntax)syntax.TargetNode, syntax.Attributes[0], cancellationToken))
            .WithTrackingName(TrackingNames.Parse);

        context.RegisterSourceOutput(types, static (output, result) =>
        {
            foreach (var diagnostic in result.Diagnostics)
            {
                output.ReportDiagnostic(diagnostic.ToDiagnostic());
            }

            if (result.Model is { } model)
            {
                output.AddSource(model.FullName.Replace("global::", string.Empty) + ".Compact.g.cs", Emit(model));
            }
        });
    }
}

using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Millrace.Generators;

namespace Millrace.Nbt.Generator;

/// <summary>Generates <c>INbtSerializable&lt;T&gt;</c> for <c>[NbtSerializable]</c> partial types.</summary>
[Generator(LanguageNames.CSharp)]
public sealed partial class NbtSerializableGenerator : IIncrementalGenerator
{
    private const string AttributeName = "Millrace.Nbt.Serialization.NbtSerializableAttribute";

    /// <inheritdoc />
    public void Initialize(IncrementalGeneratorInitializationContext context)
    {
        var types = context.SyntaxProvider.ForAttributeWithMetadataName(
            AttributeName,
            static (node, _) => node is TypeDeclarationSyntax,
            static (syntax, cancellationToken) => Parse((INamedTypeSymbol)syntax.TargetSymbol, (TypeDeclarationSyntax)syntax.TargetNode, cancellationToken))
            .WithTrackingName(TrackingNames.Parse);

        context.RegisterSourceOutput(types, static (output, result) =>
        {
            foreach (var diagnostic in result.Diagnostics)
            {
                output.ReportDiagnostic(diagnostic.ToDiagnostic());
            }

            if (result.Model is { } model)
            {
                output.AddSource(model.FullName.Replace("global::", string.Empty) + ".Nbt.g.cs", Emit(model));
            }
        });
    }
}

using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace Millrace.Generators.Tests;

/// <summary>Compiles a snippet with one generator and returns the generator's and the compilation's errors.</summary>
internal static class GeneratorHarness
{
    public static (IReadOnlyList<Diagnostic> Generator, IReadOnlyList<Diagnostic> Compilation) Run(IIncrementalGenerator generator, string source)
    {
        var references = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!)
            .Split(Path.PathSeparator)
            .Select(path => MetadataReference.CreateFromFile(path))
            .Append(MetadataReference.CreateFromFile(typeof(Millrace.Nbt.Serialization.NbtSerializableAttribute).Assembly.Location))
            .Append(MetadataReference.CreateFromFile(typeof(Millrace.Compact.Serialization.CompactSchemaAttribute).Assembly.Location))
            .Append(MetadataReference.CreateFromFile(typeof(Millrace.Result<>).Assembly.Location));
        var options = new CSharpParseOptions(LanguageVersion.Preview);
        var compilation = CSharpCompilation.Create(
            "Probe",
            [CSharpSyntaxTree.ParseText(source, options)],
            references,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        var driver = CSharpGeneratorDriver.Create([generator.AsSourceGenerator()], parseOptions: options);
        driver.RunGeneratorsAndUpdateCompilation(compilation, out var output, out var diagnostics);
        return (diagnostics, output.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList());
    }
}

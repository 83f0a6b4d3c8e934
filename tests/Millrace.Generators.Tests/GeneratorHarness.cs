using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace Millrace.Generators.Tests;

/// <summary>Compiles a snippet with one generator and returns the generator's and the compilation's errors.</summary>
internal static class GeneratorHarness
{
    public static (IReadOnlyList<Diagnostic> Generator, IReadOnlyList<Diagnostic> Compilation) Run(IIncrementalGenerator generator, string source)
    {
        var (compilation, options) = Compile(source);
        var driver = CSharpGeneratorDriver.Create([generator.AsSourceGenerator()], parseOptions: options);
        driver.RunGeneratorsAndUpdateCompilation(compilation, out var output, out var diagnostics);
        return (diagnostics, output.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList());
    }

    /// <summary>
    /// Runs a generator, then again after an edit elsewhere in the compilation, and returns how the second run's
    /// parse step outputs compare with the first: all Cached or Unchanged when the models are equatable values.
    /// </summary>
    public static IReadOnlyList<IncrementalStepRunReason> RerunAfterUnrelatedEdit(IIncrementalGenerator generator, string source)
    {
        var (compilation, options) = Compile(source);
        GeneratorDriver driver = CSharpGeneratorDriver.Create(
            [generator.AsSourceGenerator()],
            parseOptions: options,
            driverOptions: new GeneratorDriverOptions(IncrementalGeneratorOutputKind.None, trackIncrementalGeneratorSteps: true));
        driver = driver.RunGenerators(compilation);
        var edited = compilation.AddSyntaxTrees(CSharpSyntaxTree.ParseText("namespace Unrelated; public static class Edit { public const int X = 1; }", options));
        driver = driver.RunGenerators(edited);
        return driver.GetRunResult().Results[0].TrackedSteps["Parse"].SelectMany(step => step.Outputs).Select(output => output.Reason).ToList();
    }

    private static (CSharpCompilation Compilation, CSharpParseOptions Options) Compile(string source)
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
        return (compilation, options);
    }
}

using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace Millrace.Generators.Tests;

/// <summary>Compiles a snippet with one generator and returns the generator's and the compilation's errors.</summary>
internal static class GeneratorHarness
{
    public static (IReadOnlyList<Diagnostic> Generator, IReadOnlyList<Diagnostic> Compilation) Run(IIncrementalGenerator generator, string source) =>
        Run(generator, source, [], new Dictionary<string, string>());

    /// <summary>Compiles a snippet with one generator, given the project's additional files and MSBuild properties
    /// (<c>build_property.NAME</c>).</summary>
    public static (IReadOnlyList<Diagnostic> Generator, IReadOnlyList<Diagnostic> Compilation) Run(IIncrementalGenerator generator, string source, IEnumerable<(string Path, string Text)> additionalFiles, IReadOnlyDictionary<string, string> properties)
    {
        var (compilation, options) = Compile(source);
        var driver = CSharpGeneratorDriver.Create(
            [generator.AsSourceGenerator()],
            additionalTexts: [.. additionalFiles.Select(file => (AdditionalText)new FileText(file.Path, file.Text))],
            parseOptions: options,
            optionsProvider: new Properties(properties));
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

            // The generators are referenced by this project to be run, never by the code they compile (they share some
            // of the libraries' source, so their types would clash with the libraries').
            .Where(path => !Path.GetFileName(path).EndsWith(".Generator.dll", StringComparison.Ordinal))
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

    private sealed class FileText(string path, string text) : AdditionalText
    {
        public override string Path => path;

        public override SourceText GetText(CancellationToken cancellationToken = default) => SourceText.From(text);
    }

    private sealed class Properties(IReadOnlyDictionary<string, string> properties) : AnalyzerConfigOptionsProvider
    {
        public override AnalyzerConfigOptions GlobalOptions { get; } = new Values(properties.ToDictionary(p => "build_property." + p.Key, p => p.Value));

        public override AnalyzerConfigOptions GetOptions(SyntaxTree tree) => new Values([]);

        public override AnalyzerConfigOptions GetOptions(AdditionalText textFile) => new Values([]);
    }

    private sealed class Values(Dictionary<string, string> values) : AnalyzerConfigOptions
    {
        public override bool TryGetValue(string key, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? value) => values.TryGetValue(key, out value);
    }
}

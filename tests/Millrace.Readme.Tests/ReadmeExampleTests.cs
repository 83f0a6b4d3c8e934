using System.Text.RegularExpressions;
using Millrace.Testing;

namespace Millrace.Readme.Tests;

/// <summary>
/// The READMEs' examples compile (this project compiles every ```csharp block of them: see its project file); here,
/// that none was missed, and that every module's README has one.
/// </summary>
public partial class ReadmeExampleTests
{
    [Fact]
    public void EveryCSharpBlock_IsCompiledHere()
    {
        var root = RepositoryRoot.Path;
        var readmes = Directory.GetFiles(Path.Combine(root, "src"), "README.md", SearchOption.AllDirectories).Append(Path.Combine(root, "README.md"));
        var blocks = readmes.Sum(readme => CSharpBlock().Count(File.ReadAllText(readme)));
        var compiled = typeof(ReadmeExampleTests).Assembly.GetTypes().Count(t => t.Namespace?.StartsWith("ReadmeSnippets.", StringComparison.Ordinal) == true && t.Name == "Example");
        Assert.Equal(blocks, compiled);
    }

    [Fact]
    public void EveryLibraryReadme_HasAnExample()
    {
        var root = RepositoryRoot.Path;
        foreach (var module in new[] { "Core", "Json", "Nbt", "Compact", "Parallel", "Cluster" })
        {
            var readme = File.ReadAllText(Path.Combine(root, "src", "Millrace." + module, "README.md"));
            Assert.True(CSharpBlock().IsMatch(readme), $"src/Millrace.{module}/README.md has no ```csharp example");
        }
    }

    [GeneratedRegex(@"^```csharp\s*$", RegexOptions.Multiline)]
    private static partial Regex CSharpBlock();
}

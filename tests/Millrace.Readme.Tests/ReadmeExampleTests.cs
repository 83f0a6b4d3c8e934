using System.Text.RegularExpressions;

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
        var root = FindRoot();
        var readmes = Directory.GetFiles(Path.Combine(root, "src"), "README.md", SearchOption.AllDirectories).Append(Path.Combine(root, "README.md"));
        var blocks = readmes.Sum(readme => CSharpBlock().Count(File.ReadAllText(readme)));
        var compiled = typeof(ReadmeExampleTests).Assembly.GetTypes().Count(t => t.Namespace?.StartsWith("ReadmeSnippets.", StringComparison.Ordinal) == true && t.Name == "Example");
        Assert.Equal(blocks, compiled);
    }

    [Fact]
    public void EveryLibraryReadme_HasAnExample()
    {
        var root = FindRoot();
        foreach (var module in new[] { "Core", "Json", "Nbt", "Compact", "Parallel", "Cluster" })
        {
            var readme = File.ReadAllText(Path.Combine(root, "src", "Millrace." + module, "README.md"));
            Assert.True(CSharpBlock().IsMatch(readme), $"src/Millrace.{module}/README.md has no ```csharp example");
        }
    }

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Millrace.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new DirectoryNotFoundException("The repository root (Millrace.slnx) was not found above the test's output.");
    }

    [GeneratedRegex(@"^```csharp\s*$", RegexOptions.Multiline)]
    private static partial Regex CSharpBlock();
}

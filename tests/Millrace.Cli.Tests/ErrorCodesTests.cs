using System.Reflection;
using System.Text.RegularExpressions;

namespace Millrace.Cli.Tests;

/// <summary>Every error code the tool can print, listed in its README with its exit code, and no code written inline.</summary>
public partial class ErrorCodesTests
{
    private static readonly Type[] CodeClasses =
    [
        typeof(CliErrorCodes),
        typeof(Millrace.Json.JsonErrorCodes),
        typeof(Millrace.Nbt.NbtErrorCodes),
        typeof(Millrace.Compact.CompactErrorCodes),
        typeof(Millrace.Parallel.ParallelErrorCodes),
        typeof(Millrace.Cluster.ClusterErrorCodes),
    ];

    [Fact]
    public void TheReadmesTable_ListsEveryCode_WithTheExitCodeTheToolGives()
    {
        var codes = CodeClasses
            .SelectMany(type => type.GetFields(BindingFlags.Public | BindingFlags.Static))
            .Where(field => field.IsLiteral && field.FieldType == typeof(string))
            .Select(field => (string)field.GetRawConstantValue()!)
            .ToList();
        Assert.Equal(codes.Count, codes.Distinct(StringComparer.Ordinal).Count());

        var readme = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "src", "Millrace.Cli", "README.md"));
        var listed = TableRow().Matches(readme).ToDictionary(m => m.Groups["code"].Value, m => int.Parse(m.Groups["exit"].Value, System.Globalization.CultureInfo.InvariantCulture), StringComparer.Ordinal);

        Assert.Equal(codes.Order(StringComparer.Ordinal), listed.Keys.Order(StringComparer.Ordinal));
        Assert.All(codes, code => Assert.Equal(CliErrors.ExitCodeOf(new Error(code, "any")), listed[code]));
    }

    [Fact]
    public void TheTool_WritesNoCodeInline()
    {
        var source = Path.Combine(RepositoryRoot.Path, "src", "Millrace.Cli");
        var inline = Directory.EnumerateFiles(source, "*.cs", SearchOption.AllDirectories)
            .Where(path => !path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal) && !path.EndsWith("CliErrorCodes.cs", StringComparison.Ordinal))
            .SelectMany(path => InlineCode().Matches(File.ReadAllText(path)).Select(m => $"{Path.GetFileName(path)}: {m.Value}"))
            .ToList();
        Assert.Empty(inline);
    }

    [Fact]
    public void TheSameFailure_HasTheSameCode_AsAnExceptionOrAsTheToolsOwn()
    {
        Assert.Equal(CliErrorCodes.Open, CliErrors.Describe(new FileNotFoundException("gone")).Code);
        Assert.Equal(CliErrorCodes.Io, CliErrors.Describe(new IOException("disk")).Code);
        Assert.Equal(CliErrorCodes.Convert, CliErrors.Describe(new ArgumentException("no NaN in SNBT", "tag")).Code);
        Assert.Equal("no NaN in SNBT", CliErrors.Describe(new ArgumentException("no NaN in SNBT", "tag")).Message);
        Assert.Equal(CliErrorCodes.Output, CliErrors.Describe(new CliException(CliErrorCodes.Output, "a folder")).Code);
        Assert.Equal(CliErrorCodes.Unexpected, CliErrors.Describe(new NotImplementedException()).Code);
    }

    [GeneratedRegex(@"^\| `(?<code>[a-z0-9._-]+)` \| (?<exit>\d+) \|", RegexOptions.Multiline)]
    private static partial Regex TableRow();

    [GeneratedRegex(@"Error\(""[a-z]")]
    private static partial Regex InlineCode();
}

using System.Reflection;
using System.Text.RegularExpressions;
using Millrace.Testing;

namespace Millrace.Readme.Tests;

/// <summary>
/// <c>docs/architecture.md</c> stays true: every file and folder it names exists, and every type or member it names
/// is declared in the repository's code or in a library the code uses.
/// </summary>
public partial class ArchitectureDocTests
{
    // Names the page uses for what does not exist yet: the "Adding a new format" recipe's placeholder format X.
    private static readonly Regex Placeholder = PlaceholderName();

    [Fact]
    public void EveryPathTypeAndMemberItNames_Exists()
    {
        var root = RepositoryRoot.Path;
        var page = File.ReadAllText(Path.Combine(root, "docs", "architecture.md"));
        var sources = Directory.EnumerateFiles(Path.Combine(root, "src"), "*.cs", SearchOption.AllDirectories)
            .Concat(Directory.EnumerateFiles(Path.Combine(root, "tests"), "*.cs", SearchOption.AllDirectories))
            .Where(path => !path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Select(path => (Path: path, Text: File.ReadAllText(path)))
            .ToList();

        var missing = new List<string>();
        foreach (var name in NamesIn(page).Where(n => !Placeholder.IsMatch(n)).Distinct(StringComparer.Ordinal))
        {
            if (!Exists(name, root, sources))
            {
                missing.Add(name);
            }
        }

        Assert.True(missing.Count == 0, "docs/architecture.md names what does not exist: " + string.Join(", ", missing));
    }

    /// <summary>The backticked names of the prose, and the type-like names of the pictures.</summary>
    private static IEnumerable<string> NamesIn(string page)
    {
        foreach (Match fence in Fence().Matches(page))
        {
            foreach (Match word in PictureName().Matches(fence.Groups["body"].Value))
            {
                // A platform namespace's name (System.CommandLine) is the platform's to keep true.
                if (word.Value.Split('.').Any(segment => HumpCount(segment) >= 2) && !PlatformNamespace().IsMatch(word.Value))
                {
                    yield return word.Value;
                }
            }
        }

        foreach (Match quoted in Backticked().Matches(Fence().Replace(page, string.Empty)))
        {
            var token = quoted.Groups["name"].Value;
            if (token.Contains(' ', StringComparison.Ordinal) || token.StartsWith('-') || token.Contains('…', StringComparison.Ordinal)
                || token.Contains('*', StringComparison.Ordinal) || token.StartsWith("analyzers/", StringComparison.Ordinal) || Keyword().IsMatch(token))
            {
                continue; // A command line, an option, a family or pattern of names, a package's inside, a C# keyword.
            }

            yield return GenericArguments().Replace(token, string.Empty).Replace("()", string.Empty, StringComparison.Ordinal);
        }
    }

    private static bool Exists(string name, string root, List<(string Path, string Text)> sources)
    {
        if (name.Contains('/', StringComparison.Ordinal) || Extension().IsMatch(name))
        {
            var relative = name.TrimEnd('/');
            if (relative.EndsWith("/*.cs", StringComparison.Ordinal))
            {
                relative = relative[..^"/*.cs".Length];
            }

            return File.Exists(Path.Combine(root, relative)) || Directory.Exists(Path.Combine(root, relative))
                || (name.EndsWith('/') && !relative.Contains('/', StringComparison.Ordinal)
                    && Directory.EnumerateDirectories(Path.Combine(root, "src"), relative, SearchOption.AllDirectories).Any())
                || (!relative.Contains('/', StringComparison.Ordinal)
                    && Directory.EnumerateFiles(Path.Combine(root, "src"), relative, SearchOption.AllDirectories).Any());
        }

        var parts = name.Split('.');
        if (parts.Length > 1 && parts[0] == "Millrace")
        {
            // A module or namespace, such as Millrace.Core.
            return Directory.Exists(Path.Combine(root, "src", name)) || sources.Any(s => s.Text.Contains($"namespace {name}", StringComparison.Ordinal));
        }

        var type = parts[0];
        var member = parts.Length > 1 ? parts[1] : null;
        var declaring = sources.Where(s => Regex.IsMatch(s.Text, $@"\b(class|struct|record|interface|enum|delegate)\s+(struct\s+)?{Regex.Escape(type)}\b")).ToList();
        if (declaring.Count > 0)
        {
            return member is null || declaring.Any(s => Regex.IsMatch(s.Text, $@"\b{Regex.Escape(member)}\b"));
        }

        // A method or property named alone (SelectParallelResultsAsync, PrependPathAndPropagate).
        if (member is null && sources.Any(s => Regex.IsMatch(s.Text, $@"\s{Regex.Escape(type)}(<[^>\n]*>)?\(")))
        {
            return true;
        }

        // A type of a library the code uses: the platform, Orleans, System.CommandLine.
        var platform = LoadedTypes().Where(t => t.Name == type || t.Name.StartsWith(type + "`", StringComparison.Ordinal)).ToList();
        return platform.Count > 0 && (member is null || platform.Any(t => t.GetMember(member).Length > 0));
    }

    private static IEnumerable<Type> LoadedTypes()
    {
        // Touch the libraries whose types the page may name, so their assemblies are loaded.
        _ = new[] { typeof(System.Text.Json.Utf8JsonReader), typeof(Microsoft.Extensions.Hosting.BackgroundService), typeof(Orleans.IGrainFactory) };
        return AppDomain.CurrentDomain.GetAssemblies().SelectMany(SafeTypes);

        static IEnumerable<Type> SafeTypes(Assembly assembly)
        {
            try
            {
                return assembly.GetExportedTypes();
            }
            catch (Exception exception) when (exception is ReflectionTypeLoadException or NotSupportedException or FileNotFoundException)
            {
                return [];
            }
        }
    }

    private static int HumpCount(string segment) => Hump().Count(segment);

    [GeneratedRegex(@"[A-Z][a-z0-9]")]
    private static partial Regex Hump();

    [GeneratedRegex(@"^(System|Microsoft|Orleans)\.")]
    private static partial Regex PlatformNamespace();

    [GeneratedRegex(@"^(ref|finally|in|out|record|class|struct|static|async|await|sealed|init)$")]
    private static partial Regex Keyword();

    [GeneratedRegex(@"```[a-z]*\n(?<body>.*?)```", RegexOptions.Singleline)]
    private static partial Regex Fence();

    [GeneratedRegex(@"`(?<name>[^`\n]+)`")]
    private static partial Regex Backticked();

    // A capitalized name and its dotted parts (JsonItemScanner, IJobGrain.StartAsync, System.CommandLine).
    [GeneratedRegex(@"\b[A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)*\b")]
    private static partial Regex PictureName();

    [GeneratedRegex(@"<[^>]*>")]
    private static partial Regex GenericArguments();

    [GeneratedRegex(@"\.(cs|md|sh|txt|json|props|slnx)$")]
    private static partial Regex Extension();

    [GeneratedRegex(@"Millrace\.X\b|\bX[A-Z]|/X/|(^|/)X\.|x-format|/x\.md|\bx\.md")]
    private static partial Regex PlaceholderName();
}

using System.Text;
using System.Text.RegularExpressions;

namespace Millrace.Cli.Tests;

/// <summary>What the READMEs promise, checked where a test can: every sample they list exists, every command line they show parses.</summary>
public sealed partial class ReadmeClaimsTests
{
    private static readonly string Root = RepositoryRoot.Path;

    public static TheoryData<string> CliExamples()
    {
        // A command line shown in both READMEs is one case: xunit skips a repeated one.
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var data = new TheoryData<string>();
        foreach (var readme in new[] { "README.md", "src/Millrace.Cli/README.md" })
        {
            foreach (Match match in ShellBlock().Matches(File.ReadAllText(Path.Combine(Root, readme))))
            {
                foreach (var line in match.Groups[1].Value.Split('\n'))
                {
                    var command = line.Contains('|', StringComparison.Ordinal) ? line[(line.LastIndexOf('|') + 1)..] : line;
                    command = command.Trim();
                    if (command.StartsWith("millrace ", StringComparison.Ordinal) && seen.Add(command))
                    {
                        data.Add(command);
                    }
                }
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(CliExamples))]
    public void DocumentedCommandLines_Parse(string command)
    {
        var args = ShellWords(StripComment(command)).Skip(1).ToArray();

        var parsed = MillraceCli.CreateRootCommand(new CliConsole(Stream.Null, Stream.Null, TextWriter.Null)).Parse(args);

        Assert.True(parsed.Errors.Count == 0, $"{command}: {string.Join("; ", parsed.Errors.Select(e => e.Message))}");
    }

    [Fact]
    public void EverySampleTheReadmeLists_Exists()
    {
        var readme = File.ReadAllText(Path.Combine(Root, "README.md"));
        var samples = SampleProject().Matches(readme).Select(m => m.Groups[1].Value).Distinct().ToList();

        Assert.NotEmpty(samples);
        foreach (var sample in samples)
        {
            Assert.True(File.Exists(Path.Combine(Root, "samples", sample, sample + ".csproj")), $"samples/{sample} is listed but missing");
        }
    }

    private static string StripComment(string command)
    {
        var quoted = false;
        for (var i = 0; i < command.Length; i++)
        {
            if (command[i] is '\'' or '"')
            {
                quoted = !quoted;
            }
            else if (command[i] == '#' && !quoted && i > 0 && command[i - 1] == ' ')
            {
                return command[..i].TrimEnd();
            }
        }

        return command;
    }

    private static List<string> ShellWords(string command)
    {
        var words = new List<string>();
        var word = new StringBuilder();
        char? quote = null;
        foreach (var c in command)
        {
            if (quote is { } open)
            {
                if (c == open)
                {
                    quote = null;
                }
                else
                {
                    word.Append(c);
                }
            }
            else if (c is '\'' or '"')
            {
                quote = c;
            }
            else if (c == ' ')
            {
                if (word.Length > 0)
                {
                    words.Add(word.ToString());
                    word.Clear();
                }
            }
            else
            {
                word.Append(c);
            }
        }

        if (word.Length > 0)
        {
            words.Add(word.ToString());
        }

        return words;
    }

    [GeneratedRegex("```sh\\n(.*?)```", RegexOptions.Singleline)]
    private static partial Regex ShellBlock();

    [GeneratedRegex(@"dotnet run --project samples/(\w+)")]
    private static partial Regex SampleProject();
}

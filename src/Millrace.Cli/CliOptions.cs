using System.CommandLine;
using System.Globalization;
using Millrace.Nbt.Snbt;

namespace Millrace.Cli;

/// <summary>Options whose values are checked as they are parsed, so a bad value is a usage error naming the option.</summary>
internal static class CliOptions
{
    /// <summary>A whole-number argument between <paramref name="min"/> and <paramref name="max"/>, checked as it is parsed.</summary>
    public static Argument<int> WholeNumberArgument(string name, string description, int min, int max)
    {
        var argument = new Argument<int>(name) { Description = description };
        argument.CustomParser = result => Parse(result, name, min, max);
        return argument;
    }

    /// <summary>
    /// A whole-number option between <paramref name="min"/> and <paramref name="max"/>; without <paramref name="defaultValue"/>
    /// it reads 0 when left out, and help shows no default (the description says what leaving it out does).
    /// </summary>
    public static Option<int> WholeNumber(string name, string description, int min, int max, Func<int>? defaultValue, params string[] aliases)
    {
        var option = new Option<int>(name, aliases) { Description = description };
        if (defaultValue is not null)
        {
            option.DefaultValueFactory = _ => defaultValue();
        }

        option.CustomParser = result => Parse(result, name, min, max);
        return option;
    }

    /// <summary>The grammar SNBT is read and written in: one option, with one meaning, on every verb that reads or writes SNBT.</summary>
    public static Option<SnbtSyntax> SnbtSyntaxOption() => new("--snbt-syntax")
    {
        Description = "The SNBT grammar to read and write: modern (Minecraft 1.21.5 and later, the default) or legacy (1.21.4 and earlier). Where they read a text differently (07, 128b, 1e5, [B;1], escapes), the chosen game's reading is taken; a value it cannot write back (NaN; an infinity in modern) is an error.",
        DefaultValueFactory = _ => SnbtSyntax.Modern,
        CustomParser = result => (result.Tokens.Count > 0 ? result.Tokens[^1].Value : string.Empty) switch
        {
            "modern" => SnbtSyntax.Modern,
            "legacy" => SnbtSyntax.Legacy,
            var text => Refuse(result, $"--snbt-syntax must be modern or legacy, not '{text}'."),
        },
    };

    private static SnbtSyntax Refuse(System.CommandLine.Parsing.ArgumentResult result, string message)
    {
        result.AddError(message);
        return default;
    }

    private static int Parse(System.CommandLine.Parsing.ArgumentResult result, string name, int min, int max)
    {
        var text = result.Tokens.Count > 0 ? result.Tokens[^1].Value : string.Empty;
        if (int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max)
        {
            return value;
        }

        result.AddError(string.Create(CultureInfo.InvariantCulture, $"{name} must be a whole number from {min} to {max}, not '{text}'."));
        return default;
    }
}

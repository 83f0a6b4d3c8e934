using System.CommandLine;
using System.Globalization;

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

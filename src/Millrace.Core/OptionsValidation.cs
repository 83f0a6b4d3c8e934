using System.Globalization;
using System.Text;

namespace Millrace;

/// <summary>
/// How every module's options report what is wrong with them: each option record's <c>Validate</c> collects one line
/// per problem in these words, and throws one <see cref="ArgumentException"/> that lists them all, so a caller fixes
/// every problem at once rather than one per run. Options are validated where they are used, not as they are set: an
/// init-only record can be built in any order and copied with <c>with</c>, and the copy is checked when it is used.
/// </summary>
public static class OptionsValidation
{
    /// <summary>Words one problem: <c>MaxDepth must be at least 1 (was 0).</c></summary>
    /// <param name="name">The option's name, qualified by its record's when nested (<c>Retry.Delay</c>).</param>
    /// <param name="rule">What the value must be, from "must" on.</param>
    /// <param name="actual">The value it has.</param>
    /// <returns>The problem's line.</returns>
    public static string Describe(string name, string rule, object? actual) =>
        string.Create(CultureInfo.InvariantCulture, $"{name} {rule} (was {actual}).");

    /// <summary>Throws one exception listing every problem, when there are any.</summary>
    /// <param name="problems">The problems found.</param>
    /// <param name="heading">What was checked, the message's first line, such as <c>Invalid NBT reader options:</c>.</param>
    /// <exception cref="ArgumentException">There is at least one problem.</exception>
    public static void ThrowIfAny(IReadOnlyList<string> problems, string heading)
    {
        ArgumentNullException.ThrowIfNull(problems);
        if (problems.Count == 0)
        {
            return;
        }

        var message = new StringBuilder(heading);
        foreach (var problem in problems)
        {
            message.Append("\n- ").Append(problem);
        }

        throw new ArgumentException(message.ToString());
    }
}

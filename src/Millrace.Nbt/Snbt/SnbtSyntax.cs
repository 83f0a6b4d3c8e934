using System.Buffers;

namespace Millrace.Nbt.Snbt;

/// <summary>Character classes shared by the SNBT reader and writer.</summary>
internal static class SnbtSyntax
{
    /// <summary>The characters of unquoted names and strings.</summary>
    public static readonly SearchValues<char> UnquotedChars =
        SearchValues.Create("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-.+");
}

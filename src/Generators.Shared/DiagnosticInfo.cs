using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Millrace.Generators;

/// <summary>
/// A diagnostic as data: its descriptor, where, and its message arguments as strings. A <see cref="Diagnostic"/> holds
/// a <see cref="Location"/> tied to a syntax tree, so a parse result that carried one would never compare equal to the
/// same result parsed again, and the incremental pipeline would never cache it.
/// </summary>
internal sealed record DiagnosticInfo(DiagnosticDescriptor Descriptor, string FilePath, TextSpan Span, LinePositionSpan Lines, EquatableArray<string> Arguments)
{
    public static DiagnosticInfo Create(DiagnosticDescriptor descriptor, Location location, params object?[] arguments)
    {
        var lines = location.GetLineSpan();
        return new DiagnosticInfo(descriptor, lines.Path ?? string.Empty, location.SourceSpan, lines.Span, arguments.Select(a => a?.ToString() ?? string.Empty).ToEquatableArray());
    }

    public Diagnostic ToDiagnostic() =>
        Diagnostic.Create(Descriptor, Location.Create(FilePath, Span, Lines), Arguments.Cast<object?>().ToArray());
}

using static Millrace.Generators.CodeTemplate;

namespace Millrace.Generators;

/// <summary>A member a generated reader sets when it builds the instance it read.</summary>
/// <param name="Name">The member.</param>
/// <param name="Local">The local its value was read into.</param>
/// <param name="Present">An expression that is true when the input had the member.</param>
/// <param name="IsRequired">Whether the member is <c>required</c>.</param>
/// <param name="IsInitOnly">Whether the member is init-only.</param>
internal sealed record ConstructedMember(string Name, string Local, string Present, bool IsRequired, bool IsInitOnly);

/// <summary>
/// How both generators build the instance a reader read. When every member is plainly settable (<see cref="SetsAsRead"/>),
/// the instance is made before the read and each value is set as it is read. Otherwise every value is read into a local
/// first, then the instance is constructed once. Required members, and the init-only members of plain classes, go in the object
/// initializer. A member the input did not have keeps its own initializer value: mutable members are assigned only when
/// present; the init-only members of records and structs are set in the same initializer when every one of them was
/// present (the common case, one construction), and otherwise by one with-expression over all of them, never one
/// clone per member.
/// </summary>
internal static class ConstructionEmitter
{
    /// <summary>
    /// Whether a reader makes <c>__result</c> with <c>new T()</c> before it reads and sets each member as it reads it: when
    /// no member is required or init-only, nothing has to wait for the construction, and a wide type then needs no local
    /// and flag per member nor a second pass over them (a tenth of the read time of a 50-member record).
    /// </summary>
    public static bool SetsAsRead(IEnumerable<ConstructedMember> members) => members.All(m => !m.IsRequired && !m.IsInitOnly);

    /// <summary>
    /// The statements before the read: <c>__result</c> itself when the reader <see cref="SetsAsRead"/>, else a local and
    /// a flag (the member's <see cref="ConstructedMember.Present"/>) for each member that <paramref name="localTypes"/> types.
    /// </summary>
    public static string Start(string typeName, bool setsAsRead, IReadOnlyList<ConstructedMember> members, IReadOnlyList<string> localTypes) =>
        setsAsRead
            ? $"var __result = new {typeName}();"
            : Lines(localTypes.Select((type, i) => $"{type} {members[i].Local} = default!;\nbool {members[i].Present} = false;"));

    /// <summary>Where a member's value goes as it is read: the instance's member when the reader sets as it reads, else its local.</summary>
    public static string Target(bool setsAsRead, ConstructedMember member) => setsAsRead ? "__result." + member.Name : member.Local;

    /// <summary>
    /// The statements after the read, at a method body's indentation, that return <c>__result</c>: when the reader sets as
    /// it reads, the members it gathers in locals all the same (<paramref name="gathered"/>, such as unknown fields
    /// appended over the read) are assigned when present; otherwise the instance is built from the locals.
    /// </summary>
    public static string Finish(string typeName, bool withCapable, bool setsAsRead, IReadOnlyList<ConstructedMember> members, IEnumerable<ConstructedMember> gathered) =>
        setsAsRead ? Indent(Paragraphs([.. gathered.Select(Assignment), "return __result;"]), 8) : Build(typeName, withCapable, members);

    // Builds __result from the locals and returns it.
    private static string Build(string typeName, bool withCapable, IReadOnlyList<ConstructedMember> members)
    {
        var initializer = members.Where(m => m.IsRequired || (m.IsInitOnly && !withCapable)).ToList();
        var optionalInit = members.Where(m => !m.IsRequired && m.IsInitOnly && withCapable).ToList();
        var assigned = members.Where(m => !m.IsRequired && !m.IsInitOnly).ToList();

        var construction = optionalInit.Count == 0
            ? New(typeName, initializer)
            : $$"""
              if ({{string.Join(" && ", optionalInit.Select(m => "(" + m.Present + ")"))}})
              {
              {{Indent(New(typeName, initializer.Concat(optionalInit)), 4)}}
              }
              else
              {
              {{Indent(New(typeName, initializer), 4)}}
                  __result = __result with
                  {
              {{Indent(Lines(optionalInit.Select(m => $"{m.Name} = {m.Present} ? {m.Local} : __result.{m.Name},")), 8)}}
                  };
              }
              """;
        var assignments = Paragraphs(assigned.Select(Assignment));

        return Indent(Paragraphs([$"{typeName} __result;\n{construction}", assignments, "return __result;"]), 8);
    }

    private static string Assignment(ConstructedMember member) => $$"""
        if ({{member.Present}})
        {
            __result.{{member.Name}} = {{member.Local}};
        }
        """;

    private static string New(string typeName, IEnumerable<ConstructedMember> members) => $$"""
        __result = new {{typeName}}
        {
        {{Indent(Lines(members.Select(m => $"{m.Name} = {m.Local},")), 4)}}
        };
        """;
}

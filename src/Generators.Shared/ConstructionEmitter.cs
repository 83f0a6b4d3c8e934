using System.Text;

namespace Millrace.Generators;

/// <summary>A member a generated reader sets when it builds the instance it read.</summary>
/// <param name="Name">The member.</param>
/// <param name="Local">The local its value was read into.</param>
/// <param name="Present">An expression that is true when the input had the member.</param>
/// <param name="IsRequired">Whether the member is <c>required</c>.</param>
/// <param name="IsInitOnly">Whether the member is init-only.</param>
internal sealed record ConstructedMember(string Name, string Local, string Present, bool IsRequired, bool IsInitOnly);

/// <summary>
/// How both generators build the instance a reader read, the one way: every value is read into a local first, then
/// the instance is constructed once. Required members, and the init-only members of plain classes, go in the object
/// initializer. A member the input did not have keeps its own initializer value: mutable members are assigned only when
/// present; the init-only members of records and structs are set in the same initializer when every one of them was
/// present (the common case, one construction), and otherwise by one with-expression over all of them, never one
/// clone per member.
/// </summary>
internal static class ConstructionEmitter
{
    public static void Emit(StringBuilder code, string typeName, bool withCapable, IReadOnlyList<ConstructedMember> members)
    {
        var initializer = members.Where(m => m.IsRequired || (m.IsInitOnly && !withCapable)).ToList();
        var optionalInit = members.Where(m => !m.IsRequired && m.IsInitOnly && withCapable).ToList();
        var assigned = members.Where(m => !m.IsRequired && !m.IsInitOnly).ToList();

        code.Append("        ").Append(typeName).Append(" __result;\n");
        if (optionalInit.Count == 0)
        {
            AppendNew(code, "        __result = ", typeName, initializer, []);
        }
        else
        {
            code.Append("        if (").Append(string.Join(" && ", optionalInit.Select(m => "(" + m.Present + ")"))).Append(")\n        {\n");
            AppendNew(code, "            __result = ", typeName, initializer, optionalInit);
            code.Append("        }\n        else\n        {\n");
            AppendNew(code, "            __result = ", typeName, initializer, []);
            code.Append("            __result = __result with\n            {\n");
            foreach (var member in optionalInit)
            {
                code.Append("                ").Append(member.Name).Append(" = ").Append(member.Present).Append(" ? ").Append(member.Local)
                    .Append(" : __result.").Append(member.Name).Append(",\n");
            }

            code.Append("            };\n        }\n\n");
        }

        foreach (var member in assigned)
        {
            code.Append("        if (").Append(member.Present).Append(")\n        {\n            __result.").Append(member.Name).Append(" = ").Append(member.Local).Append(";\n        }\n\n");
        }

        code.Append("        return __result;\n    }\n");
    }

    private static void AppendNew(StringBuilder code, string prefix, string typeName, IEnumerable<ConstructedMember> first, IEnumerable<ConstructedMember> then)
    {
        var indent = new string(' ', prefix.Length - prefix.TrimStart().Length);
        code.Append(prefix).Append("new ").Append(typeName).Append('\n').Append(indent).Append("{\n");
        foreach (var member in first.Concat(then))
        {
            code.Append(indent).Append("    ").Append(member.Name).Append(" = ").Append(member.Local).Append(",\n");
        }

        code.Append(indent).Append("};\n");
    }
}

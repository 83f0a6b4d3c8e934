using System.Globalization;
using Millrace.Nbt.Tags;
using Spectre.Console;

namespace Millrace.Cli.Nbt;

/// <summary>An NBT tree as a Spectre.Console tree for <c>nbt show --tree</c>: each tag with its name, type and value.</summary>
internal static class NbtTreeView
{
    // Arrays and long strings are shown by their start: the tree is for seeing a file's shape.
    private const int ValueWidth = 60;

    public static Tree Create(string? rootName, NbtTag root)
    {
        var tree = new Tree(Label(rootName ?? string.Empty, root));
        AddChildren(tree, root);
        return tree;
    }

    private static void AddChildren(IHasTreeNodes parent, NbtTag tag)
    {
        switch (tag)
        {
            case NbtCompound compound:
                foreach (var (name, child) in compound)
                {
                    AddChildren(parent.AddNode(Label(name, child)), child);
                }

                break;
            case NbtList list:
                for (var i = 0; i < list.Count; i++)
                {
                    AddChildren(parent.AddNode(Label(string.Create(CultureInfo.InvariantCulture, $"[{i}]"), list[i])), list[i]);
                }

                break;
        }
    }

    private static string Label(string name, NbtTag tag)
    {
        var text = tag switch
        {
            NbtCompound compound => string.Create(CultureInfo.InvariantCulture, $"{name}: Compound ({compound.Count} tags)"),
            NbtList list => string.Create(CultureInfo.InvariantCulture, $"{name}: List of {list.ElementType} ({list.Count})"),
            _ => $"{name}: {tag.Type} {Shorten(tag.ToString())}",
        };
        return Markup.Escape(text);
    }

    private static string Shorten(string value) => value.Length <= ValueWidth ? value : string.Concat(value.AsSpan(0, ValueWidth - 1), "…");
}

using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Minecraft 1.21.5's encoding of lists that mix tag types: on the wire they are lists of compounds, and an element
/// that is not a compound (or is a compound that could be mistaken for a wrapper) travels as <c>{"": value}</c>.
/// </summary>
internal static class HeterogeneousLists
{
    /// <summary>Gets whether <paramref name="list"/> must be written as wrapped compounds.</summary>
    public static bool NeedsWrapping(NbtList list) => list.AllowsMixedTypes && list.IsMixed;

    /// <summary>Returns the element as written inside a wrapped list.</summary>
    public static NbtTag Wrap(NbtTag element) =>
        element is NbtCompound compound && !IsWrapper(compound) ? compound : new NbtCompound { { string.Empty, element } };

    /// <summary>Unwraps the <c>{"": value}</c> elements of a list of compounds read from the wire.</summary>
    public static NbtList Unwrap(NbtList list)
    {
        if (list.ElementType != NbtTagType.Compound || !list.Any(static e => IsWrapper((NbtCompound)e)))
        {
            return list;
        }

        var unwrapped = NbtList.WithMixedTypes();
        foreach (var element in list)
        {
            var compound = (NbtCompound)element;
            unwrapped.Add(IsWrapper(compound) ? compound[string.Empty] : compound);
        }

        return unwrapped;
    }

    private static bool IsWrapper(NbtCompound compound) => compound.Count == 1 && compound.Contains(string.Empty);
}

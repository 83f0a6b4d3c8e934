using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Binary;

/// <summary>
/// Minecraft 1.21.5's encoding of lists that mix tag types: on the wire they are lists of compounds, and an element
/// that is not a compound, or is a compound that could be mistaken for a wrapper, travels as <c>{"": value}</c>.
/// A list is wrapped exactly when Minecraft's writer would wrap it: its elements have more than one type, or one of
/// them is a compound that looks like a wrapper. Reading unwraps only lists that are exactly such an encoding, so
/// reading and writing again gives the same bytes, and a list of <c>{"": value}</c> compounds that was never
/// wrapped stays a list of compounds.
/// </summary>
internal static class HeterogeneousLists
{
    /// <summary>Gets whether <paramref name="list"/> must be written as wrapped compounds.</summary>
    public static bool NeedsWrapping(NbtList list) => list.AllowsMixedTypes && WouldWrap(list);

    /// <summary>Returns the element as written inside a wrapped list.</summary>
    public static NbtTag Wrap(NbtTag element) =>
        element is NbtCompound compound && !IsWrapper(compound) ? compound : new NbtCompound { { string.Empty, element } };

    /// <summary>Unwraps a list of compounds read from the wire when it is exactly the wrapped encoding of a list.</summary>
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
            if (!IsWrapper(compound))
            {
                unwrapped.Add(compound);
                continue;
            }

            // {"": {"a": 1}} is not what the writer makes of {"a": 1} (it writes that bare): not an encoding, keep it raw.
            var inner = compound[string.Empty];
            if (inner is NbtCompound innerCompound && !IsWrapper(innerCompound))
            {
                return list;
            }

            unwrapped.Add(inner);
        }

        // A list the writer would not wrap was never wrapped: its {"": value} compounds are data.
        return WouldWrap(unwrapped) ? unwrapped : list;
    }

    private static bool WouldWrap(NbtList list) =>
        list.IsMixed || list.Any(static e => e is NbtCompound compound && IsWrapper(compound));

    private static bool IsWrapper(NbtCompound compound) => compound.Count == 1 && compound.Contains(string.Empty);
}

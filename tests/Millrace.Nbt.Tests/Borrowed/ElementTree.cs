using Millrace.Nbt.Borrowed;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Borrowed;

/// <summary>
/// Builds an owned tag from a borrowed element through its public surface only (not <see cref="NbtElement.ToTag"/>,
/// which reads the bytes again with the tree reader), checking on the way that every way to reach a tag agrees: so a tree
/// equal to the tree reader's means every entry of the tape is right. Shared by the tests and the fuzz target.
/// </summary>
internal static class ElementTree
{
    public static NbtTag Build(NbtElement element) => element.TagType switch
    {
        NbtTagType.Byte => new NbtByte(element.GetByte()),
        NbtTagType.Short => new NbtShort(element.GetShort()),
        NbtTagType.Int => new NbtInt(element.GetInt()),
        NbtTagType.Long => new NbtLong(element.GetLong()),
        NbtTagType.Float => new NbtFloat(element.GetFloat()),
        NbtTagType.Double => new NbtDouble(element.GetDouble()),
        NbtTagType.String => new NbtString(element.GetString()),
        NbtTagType.ByteArray => new NbtByteArray(Counted(element, element.GetByteArray().ToArray())),
        NbtTagType.IntArray => new NbtIntArray(Counted(element, element.GetNumbers<int>().ToArray())),
        NbtTagType.LongArray => new NbtLongArray(Counted(element, element.GetNumbers<long>().ToArray())),
        NbtTagType.List => BuildList(element),
        _ => BuildCompound(element),
    };

    private static NbtList BuildList(NbtElement list)
    {
        var result = new NbtList(list.ElementType);
        var index = 0;
        foreach (var element in list.EnumerateList())
        {
            Check(element.TagType == list.ElementType, "an element's type is not its list's");
            var tag = Build(element);
            // The indexer passes over the elements before it: checked on the first few, so long lists stay linear, and
            // a container only by its type and size, so deep nesting is not built again at every level.
            Check(index >= 8 || Same(list[index], element, tag), "the indexer and the enumerator disagree");
            result.Add(tag);
            index++;
        }

        Check(index == list.Count, "the enumerator and Count disagree");
        if (list.ElementType is NbtTagType.Byte or NbtTagType.Short or NbtTagType.Int or NbtTagType.Long or NbtTagType.Float or NbtTagType.Double)
        {
            Check(new NbtList(Numbers(list, list.ElementType)).Equals(result) || result.Count == 0, "the number view and the elements disagree");
        }

        return result;
    }

    private static NbtCompound BuildCompound(NbtElement compound)
    {
        var result = new NbtCompound();
        var lasts = new Dictionary<string, (byte[] Spelling, NbtElement Value)>(StringComparer.Ordinal);
        var count = 0;
        foreach (var property in compound.EnumerateCompound())
        {
            var name = property.Name;
            result[name] = Build(property.Value);
            lasts[name] = (property.NameBytes.ToArray(), property.Value);
            count++;
        }

        Check(count == compound.Count, "the enumerator and Count disagree");
        foreach (var (name, tag) in result)
        {
            // A repeated name finds its last tag, the one the tree keeps. By its bytes: a name the input spells in a
            // way the flavour's encoder would not (a raw zero in Java) is not found by its decoded string.
            var (spelling, last) = lasts[name];
            Check(compound.TryGetProperty(spelling, out var found) && Same(found, last, tag), $"looking up \"{name}\" finds another tag");
        }

        return result;
    }

    private static bool Same(NbtElement indexed, NbtElement enumerated, NbtTag built) =>
        indexed.TagType == enumerated.TagType
        && (indexed.TagType is NbtTagType.List or NbtTagType.Compound ? indexed.Count == enumerated.Count : Build(indexed).Equals(built));

    private static IEnumerable<NbtTag> Numbers(NbtElement list, NbtTagType type) => type switch
    {
        NbtTagType.Byte => list.GetNumbers<sbyte>().ToArray().Select(value => (NbtTag)new NbtByte(value)),
        NbtTagType.Short => list.GetNumbers<short>().ToArray().Select(value => (NbtTag)new NbtShort(value)),
        NbtTagType.Int => list.GetNumbers<int>().ToArray().Select(value => (NbtTag)new NbtInt(value)),
        NbtTagType.Long => list.GetNumbers<long>().ToArray().Select(value => (NbtTag)new NbtLong(value)),
        NbtTagType.Float => list.GetNumbers<float>().ToArray().Select(value => (NbtTag)new NbtFloat(value)),
        _ => list.GetNumbers<double>().ToArray().Select(value => (NbtTag)new NbtDouble(value)),
    };

    private static T[] Counted<T>(NbtElement array, T[] values)
    {
        Check(values.Length == array.Count, "an array's values and Count disagree");
        return values;
    }

    private static void Check(bool condition, string what)
    {
        if (!condition)
        {
            throw new InvalidOperationException("Borrowed document inconsistency: " + what + ".");
        }
    }
}

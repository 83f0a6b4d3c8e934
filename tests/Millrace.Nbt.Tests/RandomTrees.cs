using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests;

/// <summary>Random trees for round trips: every tag type, nested lists and compounds, names and strings with NUL, non-ASCII and supplementary characters.</summary>
internal static class RandomTrees
{
    public static NbtTag Tag(Random random, int depth)
    {
        var type = depth > 3 ? random.Next(1, 9) : random.Next(1, 13);
        return type switch
        {
            1 => new NbtByte((sbyte)random.Next(-128, 128)),
            2 => new NbtShort((short)random.Next(short.MinValue, short.MaxValue + 1)),
            3 => new NbtInt(random.Next(int.MinValue, int.MaxValue)),
            4 => new NbtLong(random.NextInt64(long.MinValue, long.MaxValue)),
            5 => new NbtFloat((float)((random.NextDouble() - 0.5) * Math.Pow(10, random.Next(-20, 20)))),
            6 => new NbtDouble((random.NextDouble() - 0.5) * Math.Pow(10, random.Next(-200, 200))),
            7 => new NbtByteArray([.. Enumerable.Range(0, random.Next(20)).Select(_ => (byte)random.Next(256))]),
            8 => new NbtString(String(random)),
            9 => List(random, depth),
            10 => Compound(random, depth),
            11 => new NbtIntArray([.. Enumerable.Range(0, random.Next(10)).Select(_ => random.Next(int.MinValue, int.MaxValue))]),
            _ => new NbtLongArray([.. Enumerable.Range(0, random.Next(10)).Select(_ => random.NextInt64(long.MinValue, long.MaxValue))]),
        };
    }

    public static string String(Random random)
    {
        const string Alphabet = "abcXYZ019 _-.+\"'\\\n\0\u00e9\u4e2d";
        var text = new string([.. Enumerable.Range(0, random.Next(12)).Select(_ => Alphabet[random.Next(Alphabet.Length)])]);
        return random.Next(4) == 0 ? text + "\U0001F600" : text;
    }

    public static NbtList List(Random random, int depth)
    {
        var list = new NbtList();
        var first = Tag(random, depth + 1);
        list.Add(first);
        for (var i = random.Next(4); i > 0; i--)
        {
            NbtTag next;
            do
            {
                next = Tag(random, depth + 1);
            }
            while (next.Type != first.Type);
            list.Add(next);
        }

        return list;
    }

    public static NbtCompound Compound(Random random, int depth)
    {
        var compound = new NbtCompound();
        for (var i = random.Next(5); i > 0; i--)
        {
            compound[String(random)] = Tag(random, depth + 1);
        }

        return compound;
    }
}

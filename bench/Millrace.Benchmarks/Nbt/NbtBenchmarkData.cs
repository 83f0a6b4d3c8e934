using Millrace.Nbt;
using Millrace.Nbt.Tags;

namespace Millrace.Benchmarks.Nbt;

/// <summary>The NBT shapes of the seed's report, and the files Minecraft tools read most.</summary>
internal static class NbtBenchmarkData
{
    /// <summary>The shape of Minecraft's player file that simdnbt publishes its throughput for.</summary>
    public const string ComplexPlayer = "complex_player";

    /// <summary>A server's file whose strings are full of <c>§</c> colour codes: text that is not ASCII.</summary>
    public const string Hypixel = "hypixel";

    /// <summary>Gets the shapes to run: the seed's, ours, simdnbt's file and one of text that is not ASCII.</summary>
    public static IReadOnlyList<string> Shapes => ["simple", "complex", "deep", "large-array", "bigtest", "player", "items", ComplexPlayer, Hypixel];

    /// <summary>
    /// Gets the path of <c>complex_player.dat</c>, simdnbt's (MIT), read in place from <c>../shared/data/nbt-real</c>, whose
    /// <c>SOURCES.md</c> says where it is from.
    /// </summary>
    public static string ComplexPlayerPath => Path.Combine(BenchmarkFiles.SharedData("nbt-real"), ComplexPlayer + ".dat");

    public static NbtDocument Create(string shape) => shape switch
    {
        ComplexPlayer => NbtFile.Read(File.ReadAllBytes(ComplexPlayerPath)).Document,
        Hypixel => NbtFile.Read(File.ReadAllBytes(Path.Combine(BenchmarkFiles.SharedData("nbt-real"), Hypixel + ".nbt"))).Document,
        "simple" => new NbtDocument("simple", Simple()),
        "complex" => new NbtDocument("complex", Complex()),
        "deep" => new NbtDocument("deep", Deep(20)),
        "large-array" => new NbtDocument("array", new NbtCompound { { "values", new NbtIntArray([.. Enumerable.Range(0, 10_000)]) } }),
        "bigtest" => NbtDocument.Read(File.ReadAllBytes(Path.Combine(RepositoryRoot(), "samples", "bigtest.nbt"))),
        "player" => new NbtDocument("", Player()),
        _ => new NbtDocument("", new NbtCompound { { "Items", Items(120) } }),
    };

    private static NbtCompound Simple() => new()
    {
        { "byte", new NbtByte(1) },
        { "short", new NbtShort(2) },
        { "int", new NbtInt(3) },
        { "long", new NbtLong(4) },
        { "float", new NbtFloat(5.5f) },
        { "double", new NbtDouble(6.25) },
        { "string", new NbtString("seven") },
    };

    private static NbtCompound Complex() => new()
    {
        { "name", new NbtString("complex") },
        { "simple", Simple() },
        { "list", new NbtList([Simple(), Simple(), Simple()]) },
        { "bytes", new NbtByteArray([.. Enumerable.Range(0, 32).Select(i => (byte)i)]) },
        { "ints", new NbtIntArray([.. Enumerable.Range(0, 16)]) },
        { "longs", new NbtLongArray([.. Enumerable.Range(0, 8).Select(i => (long)i)]) },
    };

    private static NbtCompound Deep(int levels)
    {
        var tag = new NbtCompound { { "leaf", new NbtInt(levels) } };
        for (var i = 0; i < levels; i++)
        {
            tag = new NbtCompound { { "level", new NbtInt(i) }, { "child", tag } };
        }

        return tag;
    }

    private static NbtList Doubles(params double[] values) => new(values.Select(v => (NbtTag)new NbtDouble(v)));

    private static NbtCompound Item(int slot, string id) => new()
    {
        { "Slot", new NbtByte((sbyte)slot) },
        { "id", new NbtString(id) },
        { "Count", new NbtByte(1) },
        {
            "tag", new NbtCompound
            {
                { "Damage", new NbtInt(slot * 3) },
                { "Enchantments", new NbtList([new NbtCompound { { "id", new NbtString("minecraft:sharpness") }, { "lvl", new NbtShort(5) } }, new NbtCompound { { "id", new NbtString("minecraft:unbreaking") }, { "lvl", new NbtShort(3) } }]) },
            }
        },
    };

    /// <summary>A player file of about 3 KB: position, motion, health, abilities and a 20-slot inventory.</summary>
    private static NbtCompound Player()
    {
        var inventory = new NbtList(NbtTagType.Compound);
        for (var slot = 0; slot < 20; slot++)
        {
            inventory.Add(Item(slot, slot % 2 == 0 ? "minecraft:diamond_sword" : "minecraft:cobblestone"));
        }

        return new NbtCompound
        {
            { "DataVersion", new NbtInt(3953) },
            { "Pos", Doubles(123.5, 64.0, -987.25) },
            { "Motion", Doubles(0, -0.0784, 0) },
            { "Rotation", new NbtList([new NbtFloat(90f), new NbtFloat(12.5f)]) },
            { "Health", new NbtFloat(17.5f) },
            { "FoodLevel", new NbtInt(18) },
            { "XpLevel", new NbtInt(30) },
            { "UUID", new NbtIntArray([1, 2, 3, 4]) },
            { "Dimension", new NbtString("minecraft:overworld") },
            { "abilities", new NbtCompound { { "flying", new NbtByte(0) }, { "walkSpeed", new NbtFloat(0.1f) }, { "mayfly", new NbtByte(0) } } },
            { "Inventory", inventory },
        };
    }

    private static NbtList Items(int count)
    {
        var items = new NbtList(NbtTagType.Compound);
        for (var i = 0; i < count; i++)
        {
            items.Add(Item(i % 100, $"minecraft:item_{i}"));
        }

        return items;
    }

    private static string RepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Millrace.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("The repository root (Millrace.slnx) was not found above " + AppContext.BaseDirectory);
    }
}

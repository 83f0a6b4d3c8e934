using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests;

/// <summary>The canonical test files, built in code from their published structure.</summary>
public static class NbtSamples
{
    /// <summary>hello_world.nbt: 33 bytes.</summary>
    public static readonly byte[] HelloWorldBytes =
    [
        0x0A, 0x00, 0x0B, .."hello world"u8,
        0x08, 0x00, 0x04, .."name"u8, 0x00, 0x09, .."Bananrama"u8,
        0x00,
    ];

    public static NbtDocument HelloWorld() => new("hello world", new NbtCompound { { "name", new NbtString("Bananrama") } });

    /// <summary>bigtest.nbt (Notch's test file): 1,544 bytes uncompressed.</summary>
    public static NbtDocument BigTest()
    {
        static NbtCompound Food(string name, float value) => new() { { "name", new NbtString(name) }, { "value", new NbtFloat(value) } };
        static NbtCompound Created(int n) => new() { { "name", new NbtString($"Compound tag #{n}") }, { "created-on", new NbtLong(1264099775885L) } };

        var bytes = new byte[1000];
        for (var n = 0; n < bytes.Length; n++)
        {
            bytes[n] = (byte)(((n * n * 255) + (n * 7)) % 100);
        }

        var longs = new NbtList();
        for (var i = 11; i <= 15; i++)
        {
            longs.Add(new NbtLong(i));
        }

        var level = new NbtCompound
        {
            { "longTest", new NbtLong(9223372036854775807L) },
            { "shortTest", new NbtShort(32767) },
            { "stringTest", new NbtString("HELLO WORLD THIS IS A TEST STRING \u00c5\u00c4\u00d6!") },
            { "floatTest", new NbtFloat(0.49823147058486938f) },
            { "intTest", new NbtInt(2147483647) },
            { "nested compound test", new NbtCompound { { "ham", Food("Hampus", 0.75f) }, { "egg", Food("Eggbert", 0.5f) } } },
            { "listTest (long)", longs },
            { "listTest (compound)", new NbtList([Created(0), Created(1)]) },
            { "byteTest", new NbtByte(127) },
            { "byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))", new NbtByteArray(bytes) },
            { "doubleTest", new NbtDouble(0.49312871321823148) },
        };
        return new NbtDocument("Level", level);
    }
}

using Millrace.Nbt.Binary;
using Millrace.Nbt.Serialization;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Tests.Serialization;

namespace Millrace.Nbt.Tests.Binary;

/// <summary>Reading then writing any valid input in the same flavour gives the same bytes.</summary>
public class ByteIdentityTests
{
    private static readonly NbtFormat[] Flavours = [NbtFormat.Java, NbtFormat.Bedrock, NbtFormat.JavaNetwork, NbtFormat.BedrockNetwork];

    private static readonly NbtTagType[] ElementTypes =
    [
        NbtTagType.End, NbtTagType.Byte, NbtTagType.Short, NbtTagType.Int, NbtTagType.Long, NbtTagType.Float, NbtTagType.Double,
        NbtTagType.ByteArray, NbtTagType.String, NbtTagType.List, NbtTagType.Compound, NbtTagType.IntArray, NbtTagType.LongArray,
    ];

    public static TheoryData<NbtFormat> AllFlavours => [.. Flavours];

    [Theory]
    [MemberData(nameof(AllFlavours))]
    public void EmptyListsOfEveryElementType_RewriteByteForByte(NbtFormat format)
    {
        var root = new NbtCompound();
        foreach (var type in ElementTypes)
        {
            root.Add($"empty {type}", new NbtList(type));
        }

        // An empty list of compounds inside a list of lists, as in a player's nested inventories.
        var outer = new NbtList(NbtTagType.List);
        outer.Add(new NbtList(NbtTagType.Compound));
        outer.Add(new NbtList(NbtTagType.String));
        root.Add("Inventory", new NbtList(NbtTagType.Compound));
        root.Add("nested", outer);

        AssertRewritesIdentically(new NbtDocument(format == NbtFormat.JavaNetwork ? null : "player", root), format);
    }

    [Fact]
    public void EmptyList_KeepsItsDeclaredType_InTreeAndPullReader()
    {
        var bytes = new NbtDocument(string.Empty, new NbtCompound { { "Inventory", new NbtList(NbtTagType.Compound) } }).ToArray();

        Assert.Equal(NbtTagType.Compound, ((NbtList)((NbtCompound)NbtDocument.Read(bytes).Root)["Inventory"]).ElementType);
        var reader = new NbtPullReader(bytes);
        reader.Read();
        reader.Read();
        Assert.Equal(NbtToken.StartList, reader.Token);
        Assert.Equal(NbtTagType.Compound, reader.ListElementType);
        Assert.Equal(0, reader.ListCount);
    }

    [Fact]
    public void EmptyTypedLists_AreNotEqualToEmptyListsOfAnotherType()
    {
        Assert.False(new NbtList(NbtTagType.Compound).Equals(new NbtList(NbtTagType.End)));
        Assert.True(new NbtList(NbtTagType.Int).Equals(new NbtList(NbtTagType.Int)));
    }

    [Fact]
    public void GeneratedCode_WritesAnEmptyListWithItsMembersType()
    {
        var bytes = new System.Buffers.ArrayBufferWriter<byte>();
        NbtSerializer.Serialize(new PlayerData { Inventory = [], Tags = [] }, bytes);

        var root = (NbtCompound)NbtDocument.Read(bytes.WrittenSpan).Root;
        Assert.Equal(NbtTagType.Compound, ((NbtList)root["Inventory"]).ElementType);
        Assert.Equal(NbtTagType.String, ((NbtList)root["Tags"]).ElementType);
    }

    [Theory]
    [MemberData(nameof(AllFlavours))]
    public void RandomTrees_RewriteByteForByte(NbtFormat format)
    {
        var random = new Random(20261123 + (int)format);
        for (var trial = 0; trial < 150; trial++)
        {
            var document = new NbtDocument(format == NbtFormat.JavaNetwork ? null : RandomString(random, format), RandomCompound(random, format, depth: 0));
            AssertRewritesIdentically(document, format);
        }
    }

    [Theory]
    [MemberData(nameof(AllFlavours))]
    public void RandomTrees_WithHeterogeneousUnwrapping_RewriteByteForByte(NbtFormat format)
    {
        var random = new Random(777 + (int)format);
        var options = new NbtReaderOptions { Format = format, UnwrapHeterogeneousLists = true };
        for (var trial = 0; trial < 150; trial++)
        {
            var document = new NbtDocument(format == NbtFormat.JavaNetwork ? null : string.Empty, RandomCompound(random, format, depth: 0));
            var bytes = document.ToArray(new NbtWriterOptions { Format = format });
            var again = NbtDocument.Read(bytes, options).ToArray(new NbtWriterOptions { Format = format });
            Assert.Equal(bytes, again);
        }
    }

    [Fact]
    public void ListOfEmptyNamedCompounds_ThatWasNeverWrapped_StaysCompounds()
    {
        var list = new NbtList([new NbtCompound { { string.Empty, new NbtInt(1) } }, new NbtCompound { { string.Empty, new NbtInt(2) } }]);
        var bytes = new NbtDocument(string.Empty, new NbtCompound { { "l", list } }).ToArray();

        var read = NbtDocument.Read(bytes, new NbtReaderOptions { UnwrapHeterogeneousLists = true });

        var readList = (NbtList)((NbtCompound)read.Root)["l"];
        Assert.Equal(NbtTagType.Compound, readList.ElementType);
        Assert.False(readList.IsMixed);
        Assert.Equal(bytes, read.ToArray());
    }

    [Fact]
    public void MixedList_IsWrappedAndUnwrapped()
    {
        var mixed = NbtList.WithMixedTypes();
        mixed.Add(new NbtInt(1));
        mixed.Add(new NbtString("two"));
        mixed.Add(new NbtCompound { { string.Empty, new NbtByte(3) } });
        var bytes = new NbtDocument(string.Empty, new NbtCompound { { "l", mixed } }).ToArray();

        var read = NbtDocument.Read(bytes, new NbtReaderOptions { UnwrapHeterogeneousLists = true });

        Assert.Equal(mixed, ((NbtCompound)read.Root)["l"]);
        Assert.Equal(bytes, read.ToArray());
    }

    [Fact]
    public void JavaStrings_KeepUnpairedSurrogatesAndNul()
    {
        var text = "a\0b\uD800c\uDC00\U0001F600";
        AssertRewritesIdentically(new NbtDocument(text, new NbtCompound { { text, new NbtString(text) } }), NbtFormat.Java);
        var read = NbtDocument.Read(new NbtDocument(string.Empty, new NbtString(text)).ToArray());
        Assert.Equal(text, ((NbtString)read.Root).Value);
    }

    [Theory]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void BedrockStrings_RefuseUnpairedSurrogates_InsteadOfReplacingThem(NbtFormat format)
    {
        var document = new NbtDocument(string.Empty, new NbtCompound { { "name", new NbtString("bad \uD800 text") } });

        var error = Assert.Throws<ArgumentException>(() => document.ToArray(new NbtWriterOptions { Format = format }));
        Assert.Contains("unpaired surrogate", error.Message, StringComparison.Ordinal);
    }

    private static void AssertRewritesIdentically(NbtDocument document, NbtFormat format)
    {
        var bytes = document.ToArray(new NbtWriterOptions { Format = format });
        var read = NbtDocument.Read(bytes, new NbtReaderOptions { Format = format });
        Assert.Equal(bytes, read.ToArray(new NbtWriterOptions { Format = format }));
        foreach (var compression in new[] { NbtCompression.Gzip, NbtCompression.Zlib })
        {
            var compressed = document.ToArray(new NbtWriterOptions { Format = format, Compression = compression });
            var fromCompressed = NbtDocument.Read(compressed, new NbtReaderOptions { Format = format });
            Assert.Equal(bytes, fromCompressed.ToArray(new NbtWriterOptions { Format = format }));
        }
    }

    private static NbtCompound RandomCompound(Random random, NbtFormat format, int depth)
    {
        var compound = new NbtCompound();
        var count = random.Next(depth > 3 ? 2 : 6);
        for (var i = 0; i < count; i++)
        {
            var name = RandomString(random, format);
            if (!compound.Contains(name))
            {
                compound.Add(name, RandomTag(random, format, depth + 1));
            }
        }

        return compound;
    }

    private static NbtTag RandomTag(Random random, NbtFormat format, int depth)
    {
        var type = ElementTypes[1 + random.Next(ElementTypes.Length - 1)];
        if (depth > 4 && type is NbtTagType.List or NbtTagType.Compound)
        {
            type = NbtTagType.Int;
        }

        return RandomOfType(random, format, type, depth);
    }

    private static NbtTag RandomOfType(Random random, NbtFormat format, NbtTagType type, int depth) => type switch
    {
        NbtTagType.Byte => new NbtByte((sbyte)random.Next(-128, 128)),
        NbtTagType.Short => new NbtShort((short)random.Next(short.MinValue, short.MaxValue + 1)),
        NbtTagType.Int => new NbtInt(random.Next(int.MinValue, int.MaxValue)),
        NbtTagType.Long => new NbtLong(random.NextInt64(long.MinValue, long.MaxValue)),
        NbtTagType.Float => new NbtFloat(BitConverter.Int32BitsToSingle(random.Next())),
        NbtTagType.Double => new NbtDouble(BitConverter.Int64BitsToDouble(random.NextInt64())),
        NbtTagType.ByteArray => new NbtByteArray(RandomBytes(random)),
        NbtTagType.String => new NbtString(RandomString(random, format)),
        NbtTagType.IntArray => new NbtIntArray([.. Enumerable.Range(0, random.Next(4)).Select(_ => random.Next(int.MinValue, int.MaxValue))]),
        NbtTagType.LongArray => new NbtLongArray([.. Enumerable.Range(0, random.Next(4)).Select(_ => random.NextInt64())]),
        NbtTagType.Compound when random.Next(5) == 0 => new NbtCompound { { string.Empty, RandomTag(random, format, depth + 1) } },
        NbtTagType.Compound => RandomCompound(random, format, depth),
        _ => RandomList(random, format, depth),
    };

    private static NbtList RandomList(Random random, NbtFormat format, int depth)
    {
        if (random.Next(6) == 0)
        {
            var mixed = NbtList.WithMixedTypes();
            for (var i = random.Next(1, 4); i > 0; i--)
            {
                mixed.Add(RandomTag(random, format, depth + 1));
            }

            return mixed;
        }

        var elementType = ElementTypes[random.Next(ElementTypes.Length)];
        var list = new NbtList(elementType);
        if (elementType != NbtTagType.End && random.Next(3) > 0)
        {
            for (var i = random.Next(1, 4); i > 0; i--)
            {
                list.Add(RandomOfType(random, format, elementType, depth + 1));
            }
        }

        return list;
    }

    private static byte[] RandomBytes(Random random)
    {
        var bytes = new byte[random.Next(5)];
        random.NextBytes(bytes);
        return bytes;
    }

    private static string RandomString(Random random, NbtFormat format)
    {
        string[] pieces = ["", "a", "Inventory", "\0", "é", "\u20AC", "\U0001F600", " ", "\"quoted\""];
        var text = string.Concat(Enumerable.Range(0, random.Next(3)).Select(_ => pieces[random.Next(pieces.Length)]));
        return format is NbtFormat.Java or NbtFormat.JavaNetwork && random.Next(8) == 0 ? text + "\uDC01" : text;
    }
}

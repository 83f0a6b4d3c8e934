using System.Buffers.Binary;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Borrowed;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Borrowed;

/// <summary>
/// The borrowed document against the tree reader, its oracle: every tag read through the elements equals the tree, and
/// every input the tree reader refuses is refused with the same code, offset and path (strings aside: the borrowed
/// document checks them when it decodes them, and then says the same).
/// </summary>
public class BorrowedDocumentTests
{
    public static TheoryData<NbtFormat> Formats => [NbtFormat.Java, NbtFormat.JavaNetwork, NbtFormat.Bedrock];

    // Shaped like a player file: lists of compounds holding compounds and lists of compounds, lists of numbers, names
    // that repeat; every path of the parser's run (into and out of nested compounds and lists) is taken.
    private static NbtDocument Player()
    {
        static NbtCompound Item(int slot) => new()
        {
            { "id", new NbtString("minecraft:diamond_sword") },
            { "Damage", new NbtShort((short)(slot * 7)) },
            { "Count", new NbtByte(1) },
            {
                "tag", new NbtCompound
                {
                    { "RepairCost", new NbtInt(slot) },
                    { "ench", new NbtList(Enumerable.Range(0, slot % 4).Select(i => (NbtTag)new NbtCompound { { "id", new NbtShort((short)i) }, { "lvl", new NbtShort(3) } })) },
                    { "display", new NbtCompound { { "Name", new NbtString($"Item \u00e9 {slot}") } } },
                    { "empty", new NbtList(NbtTagType.Compound) },
                }
            },
            { "Slot", new NbtByte((sbyte)slot) },
        };

        return new NbtDocument("", new NbtCompound
        {
            { "Motion", new NbtList([new NbtDouble(0), new NbtDouble(-0.0784000015258789), new NbtDouble(0)]) },
            { "Rotation", new NbtList([new NbtFloat(1.5f), new NbtFloat(-2)]) },
            { "Inventory", new NbtList(Enumerable.Range(0, 40).Select(i => (NbtTag)Item(i))) },
            { "SelectedItem", Item(3) },
            { "abilities", new NbtCompound { { "flying", new NbtByte(0) }, { "walkSpeed", new NbtFloat(0.1f) } } },
            { "UUID", new NbtIntArray([1, -2, 3, int.MinValue]) },
            { "Seen", new NbtLongArray([long.MaxValue, -1]) },
            { "Names", new NbtList([new NbtString("a"), new NbtString("\u4e2d\0\U0001F600")]) },
            { "Nested", new NbtList([new NbtList([new NbtInt(1)]), new NbtList(NbtTagType.End)]) },
            { "Shorts", new NbtList([new NbtShort(-5), new NbtShort(300)]) },
            { "Bytes", new NbtList([new NbtByte(-1), new NbtByte(2)]) },
            { "Longs", new NbtList([new NbtLong(-5), new NbtLong(1L << 40)]) },
            { "Health", new NbtFloat(20) },
        });
    }

    private static IEnumerable<NbtDocument> Documents()
    {
        yield return NbtSamples.HelloWorld();
        yield return NbtSamples.BigTest();
        yield return Player();
        var random = new Random(77);
        for (var i = 0; i < 200; i++)
        {
            yield return new NbtDocument(RandomTrees.String(random), i % 5 == 0 ? RandomTrees.Compound(random, 0) : RandomTrees.Tag(random, 0));
        }
    }

    private static byte[] Bytes(NbtDocument document, NbtFormat format)
    {
        // Only the Java network flavour has roots that are not compounds, and no name.
        var root = format == NbtFormat.JavaNetwork || document.Root is NbtCompound ? document.Root : new NbtCompound { { "root", document.Root } };
        return new NbtDocument(format == NbtFormat.JavaNetwork ? null : document.Name ?? "", root).ToArray(new NbtWriterOptions { Format = format });
    }

    [Theory]
    [MemberData(nameof(Formats))]
    public void EveryTag_ReadThroughTheElements_IsTheTree(NbtFormat format)
    {
        var options = new NbtReaderOptions { Format = format };
        foreach (var source in Documents())
        {
            var bytes = Bytes(source, format);
            var tree = NbtDocument.Read(bytes, options);
            using var document = NbtBorrowedDocument.Parse(bytes, options);
            Assert.Equal(tree.Name, document.Name);
            Assert.Equal(tree.Root, ElementTree.Build(document.Root));
            Assert.Equal(tree.Root, document.Root.ToTag());
            Assert.Equal(tree, document.ToDocument());
            Assert.Equal(NbtCompression.None, document.Compression);
            Assert.True(bytes.AsSpan().SequenceEqual(document.Bytes.Span));
        }
    }

    [Fact]
    public void ListsOfNumbers_TakeOneEntry_AndEveryOtherTagOne()
    {
        // bigtest: 2 + 5 longs in one list entry, a 1,000-byte array in one entry.
        using var document = NbtBorrowedDocument.Parse(NbtSamples.BigTest().ToArray());
        Assert.Equal(Tags(NbtSamples.BigTest().Root), document.EntryCount);

        static int Tags(NbtTag tag) => tag switch
        {
            NbtCompound compound => 1 + compound.Sum(pair => Tags(pair.Value)),
            NbtList list when list.ElementType is NbtTagType.List or NbtTagType.Compound or NbtTagType.String or NbtTagType.ByteArray or NbtTagType.IntArray or NbtTagType.LongArray
                => 1 + list.Sum(Tags),
            _ => 1,
        };
    }

    [Fact]
    public void HelloWorld_GoldenBytes_ReadByNameAndBytes()
    {
        using var document = NbtBorrowedDocument.Parse(NbtSamples.HelloWorldBytes);
        Assert.Equal("hello world", document.Name);
        Assert.Equal(NbtTagType.Compound, document.Root.TagType);
        Assert.Equal(1, document.Root.Count);
        Assert.Equal("Bananrama", document.Root.GetProperty("name").GetString());
        Assert.True(document.Root.TryGetProperty("name"u8, out var name));
        Assert.True(name.GetStringBytes().Span.SequenceEqual("Bananrama"u8));
        Assert.Equal(23, NbtSamples.HelloWorldBytes.AsSpan().IndexOf("Bananrama"u8));
        Assert.False(document.Root.TryGetProperty("Name", out _));
        Assert.Throws<KeyNotFoundException>(() => document.Root.GetProperty("missing"));
    }

    [Theory]
    [MemberData(nameof(Formats))]
    public void NamesOutsideAscii_AreFoundByStringInTheFlavoursEncoding(NbtFormat format)
    {
        var names = new[] { "caf\u00e9", "nul\0inside", "smile\U0001F600", "" };
        var compound = new NbtCompound();
        for (var i = 0; i < names.Length; i++)
        {
            compound[names[i]] = new NbtInt(i);
        }

        var bytes = new NbtDocument(format == NbtFormat.JavaNetwork ? null : "r", compound).ToArray(new NbtWriterOptions { Format = format });
        using var document = NbtBorrowedDocument.Parse(bytes, new NbtReaderOptions { Format = format });
        for (var i = 0; i < names.Length; i++)
        {
            Assert.True(document.Root.TryGetProperty(names[i], out var value), names[i]);
            Assert.Equal(i, value.GetInt());
        }

        Assert.False(document.Root.TryGetProperty("\ud800", out _));
        Assert.False(document.Root.TryGetProperty(new string('x', 300), out _));
        Assert.Equal(names, EnumerateNames(document.Root));
    }

    [Fact]
    public void RepeatedNames_LookUpTheLast_AsTheTreeKeepsIt()
    {
        byte[] bytes =
        [
            0x0A, 0x00, 0x00,
            0x01, 0x00, 0x01, (byte)'a', 0x01,
            0x01, 0x00, 0x01, (byte)'a', 0x02,
            0x00,
        ];
        using var document = NbtBorrowedDocument.Parse(bytes);
        Assert.Equal(2, document.Root.Count);
        Assert.Equal(2, document.Root.GetProperty("a").GetByte());
        Assert.Equal(NbtDocument.Read(bytes).Root, ElementTree.Build(document.Root));
    }

    [Theory]
    [InlineData(NbtFormat.Java, true)]
    [InlineData(NbtFormat.Bedrock, false)]
    public void NumberViews_ReadInPlace_InTheInputsByteOrder(NbtFormat format, bool bigEndian)
    {
        var bytes = Player().ToArray(new NbtWriterOptions { Format = format });
        using var document = NbtBorrowedDocument.Parse(bytes, new NbtReaderOptions { Format = format });
        var root = document.Root;

        var uuid = root.GetProperty("UUID").GetNumbers<int>();
        Assert.Equal(bigEndian, uuid.IsBigEndian);
        Assert.Equal(4, uuid.Count);
        Assert.Equal([1, -2, 3, int.MinValue], uuid.ToArray());
        Assert.Equal(-2, uuid[1]);
        Assert.Equal(16, uuid.Bytes.Length);
        Assert.Equal(-2, bigEndian ? BinaryPrimitives.ReadInt32BigEndian(uuid.Bytes.Span[4..]) : BinaryPrimitives.ReadInt32LittleEndian(uuid.Bytes.Span[4..]));
        var copied = new int[5];
        uuid.CopyTo(copied);
        Assert.Equal([1, -2, 3, int.MinValue, 0], copied);
        Assert.Throws<ArgumentException>(() => uuid.CopyTo(new int[3]));
        Assert.Throws<ArgumentOutOfRangeException>(() => uuid[4]);
        Assert.Throws<ArgumentOutOfRangeException>(() => uuid[-1]);

        Assert.Equal([long.MaxValue, -1L], root.GetProperty("Seen").GetNumbers<long>().ToArray());
        Assert.Equal([0, -0.0784000015258789, 0], root.GetProperty("Motion").GetNumbers<double>().ToArray());
        Assert.Equal([1.5f, -2f], root.GetProperty("Rotation").GetNumbers<float>().ToArray());
        Assert.Equal([(short)-5, (short)300], root.GetProperty("Shorts").GetNumbers<short>().ToArray());
        Assert.Equal([(sbyte)-1, (sbyte)2], root.GetProperty("Bytes").GetNumbers<sbyte>().ToArray());
        Assert.Equal([0xFF, 0x02], root.GetProperty("Bytes").GetByteArray().ToArray());
        Assert.Equal([-5L, 1L << 40], root.GetProperty("Longs").GetNumbers<long>().ToArray());
        var sum = 0L;
        foreach (var value in root.GetProperty("Longs").GetNumbers<long>())
        {
            sum += value;
        }

        Assert.Equal((1L << 40) - 5, sum);
        Assert.Equal(-0.0784000015258789, root.GetProperty("Motion")[1].GetDouble());
        Assert.Equal(NbtTagType.Double, root.GetProperty("Motion")[1].TagType);
        Assert.Equal(new NbtDouble(-0.0784000015258789), root.GetProperty("Motion")[1].ToTag());

        // An empty list that declares no element type is an empty view of any number.
        var untyped = root.GetProperty("Nested")[1];
        Assert.Equal(NbtTagType.End, untyped.ElementType);
        Assert.Equal(0, untyped.GetNumbers<double>().Count);
        Assert.Empty(untyped.GetNumbers<int>().ToArray());
    }

    [Fact]
    public void GettersOfAnotherType_Throw()
    {
        using var document = NbtBorrowedDocument.Parse(Player().ToArray());
        var root = document.Root;
        Assert.Throws<InvalidOperationException>(() => root.GetInt());
        Assert.Throws<InvalidOperationException>(() => root.EnumerateList());
        Assert.Throws<InvalidOperationException>(() => root.ElementType);
        Assert.Throws<InvalidOperationException>(() => root[0]);
        Assert.Throws<InvalidOperationException>(() => root.GetProperty("Health").GetDouble());
        Assert.Throws<InvalidOperationException>(() => root.GetProperty("Health").Count);
        Assert.Throws<InvalidOperationException>(() => root.GetProperty("Health").TryGetProperty("x", out _));
        Assert.Throws<InvalidOperationException>(() => root.GetProperty("UUID").GetNumbers<long>());
        Assert.Throws<InvalidOperationException>(() => root.GetProperty("Motion").GetNumbers<float>());
        Assert.Throws<InvalidOperationException>(() => root.GetProperty("Motion")[0].GetNumbers<double>());
        Assert.Throws<InvalidOperationException>(() => root.GetProperty("Inventory").GetNumbers<byte>());
        Assert.Throws<InvalidOperationException>(() => root.GetProperty("Names").GetByteArray());
        Assert.Throws<ArgumentOutOfRangeException>(() => root.GetProperty("Inventory")[40]);
        Assert.Throws<InvalidOperationException>(() => default(NbtElement).TagType);
        Assert.Throws<InvalidOperationException>(() => default(NbtElement).ToTag());
        Assert.Throws<InvalidOperationException>(() => default(NbtProperty).Name);
    }

    [Fact]
    public void AfterDispose_TheDocumentAndItsElementsThrow()
    {
        var document = NbtBorrowedDocument.Parse(Player().ToArray());
        var health = document.Root.GetProperty("Health");
        document.Dispose();
        document.Dispose();
        Assert.Throws<ObjectDisposedException>(() => document.Root);
        Assert.Throws<ObjectDisposedException>(() => document.Name);
        Assert.Throws<ObjectDisposedException>(() => document.Bytes);
        Assert.Throws<ObjectDisposedException>(() => document.ToDocument());
        Assert.Throws<ObjectDisposedException>(() => health.GetFloat());
        Assert.Throws<ObjectDisposedException>(() => health.TagType);
    }

    [Fact]
    public void BedrockNetwork_IsRefusedWithTheReason()
    {
        var error = Assert.Throws<ArgumentException>(() => NbtBorrowedDocument.Parse(NbtSamples.HelloWorldBytes, new NbtReaderOptions { Format = NbtFormat.BedrockNetwork }));
        Assert.Contains("varints", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(NbtCompression.Gzip, "gzip")]
    [InlineData(NbtCompression.Zlib, "zlib")]
    public void CompressedInput_IsReadFromItsDecompression_AndErrorsSaySo(NbtCompression compression, string name)
    {
        var player = Player();
        using (var document = NbtBorrowedDocument.Parse(player.ToArray(new NbtWriterOptions { Compression = compression })))
        {
            Assert.Equal(compression, document.Compression);
            Assert.True(document.Bytes.Span.SequenceEqual(player.ToArray()));
            Assert.Equal(player.Root, ElementTree.Build(document.Root));
        }

        using var compressed = new PooledBufferWriter();
        NbtCompressionCodec.Compress(player.ToArray().AsSpan(0, 200), compression, compressed);
        var error = Assert.Throws<NbtFormatException>(() => NbtBorrowedDocument.Parse(compressed.WrittenMemory));
        Assert.Contains($"of the {name}-decompressed data", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Formats))]
    public void EveryTruncation_IsRefusedAsTheTreeReaderRefusesIt(NbtFormat format)
    {
        var options = new NbtReaderOptions { Format = format };
        foreach (var source in Documents().Take(30))
        {
            var bytes = Bytes(source, format);
            for (var length = 0; length < bytes.Length; length++)
            {
                AgreesWithTheTreeReader(bytes.AsMemory(0, length), options);
            }

            AgreesWithTheTreeReader(bytes.Append((byte)0).ToArray(), options);
        }
    }

    [Theory]
    [MemberData(nameof(Formats))]
    public void RandomCorruption_IsRefusedOrReadAsTheTreeReaderDoes(NbtFormat format)
    {
        var random = new Random(31);
        var inputs = Documents().Take(40).Select(document => Bytes(document, format)).ToList();
        for (var trial = 0; trial < 3000; trial++)
        {
            var damaged = (byte[])inputs[trial % inputs.Count].Clone();
            for (var flips = random.Next(1, 4); flips > 0; flips--)
            {
                damaged[random.Next(damaged.Length)] = random.Next(3) == 0 ? (byte)random.Next(256) : (byte)(damaged[random.Next(damaged.Length)] ^ (1 << random.Next(8)));
            }

            // Small depth limits as well, so the run's limit checks meet the tree reader's.
            var maxDepth = trial % 3 == 0 ? 1 + (trial % 4) : NbtReaderConstants.MaxDepth;
            AgreesWithTheTreeReader(damaged, new NbtReaderOptions { Format = format, MaxDepth = maxDepth });
        }
    }

    [Fact]
    public void NestingPastTheFirstFramesAndTheLimit_AgreesWithTheTreeReader()
    {
        foreach (var depth in new[] { 15, 16, 17, 40, 300 })
        {
            NbtTag tag = new NbtInt(depth);
            for (var i = 0; i < depth; i++)
            {
                tag = i % 3 == 0 ? new NbtList([tag]) : new NbtCompound { { "n", tag } };
            }

            var bytes = new NbtDocument("deep", tag is NbtCompound ? tag : new NbtCompound { { "n", tag } }).ToArray();
            foreach (var maxDepth in new[] { depth - 1, depth, depth + 1, 512 })
            {
                AgreesWithTheTreeReader(bytes, new NbtReaderOptions { MaxDepth = maxDepth });
            }
        }
    }

    [Fact]
    public void ManyTags_GrowTheTape_WithinMaxBytes()
    {
        // 50,000 empty compounds: 1 byte each, more entries than the first tape guess.
        var list = new NbtList(Enumerable.Range(0, 50_000).Select(_ => (NbtTag)new NbtCompound()));
        var bytes = new NbtDocument("", new NbtCompound { { "many", list } }).ToArray();
        using (var document = NbtBorrowedDocument.Parse(bytes))
        {
            Assert.Equal(50_000, document.Root.GetProperty("many").Count);
            Assert.Equal(50_002, document.EntryCount);
            Assert.Equal(0, document.Root.GetProperty("many")[49_999].Count);
        }

        // The tape counts against MaxBytes, 20 bytes an entry.
        var error = Assert.Throws<NbtFormatException>(() => NbtBorrowedDocument.Parse(bytes, new NbtReaderOptions { MaxBytes = 200_000 }));
        Assert.Equal(NbtErrorCodes.Quota, error.Code);
    }

    [Fact]
    public void TinyQuotas_RefuseWithAQuotaError_AndDisposeCleanly()
    {
        // Tapes sized exactly to a tiny quota are not pool sizes: neither the error path nor Dispose may hand them back.
        byte[][] inputs = [[0x0A, 0x00, 0x00, 0x00], [0x0A, 0x00, 0x00, 0x01, 0x00, 0x01, (byte)'a', 0x05, 0x00]];
        foreach (var input in inputs)
        {
            for (var maxBytes = 1; maxBytes <= 400; maxBytes++)
            {
                try
                {
                    var document = NbtBorrowedDocument.Parse(input, new NbtReaderOptions { MaxBytes = maxBytes });
                    Assert.Equal(NbtDocument.Read(input).Root, ElementTree.Build(document.Root));
                    document.Dispose();
                }
                catch (NbtFormatException exception)
                {
                    Assert.Equal(NbtErrorCodes.Quota, exception.Code);
                }
            }
        }
    }

    private static List<string> EnumerateNames(NbtElement compound)
    {
        var names = new List<string>();
        foreach (var property in compound.EnumerateCompound())
        {
            names.Add(property.Name);
        }

        return names;
    }

    // The tree reader is the oracle: the same tree, or the same error; a malformed string only once it is decoded.
    private static void AgreesWithTheTreeReader(ReadOnlyMemory<byte> input, NbtReaderOptions options)
    {
        NbtDocument? tree = null;
        NbtFormatException? treeError = null;
        try
        {
            tree = NbtDocument.Read(input.Span, options);
        }
        catch (NbtFormatException exception)
        {
            treeError = exception;
        }

        NbtBorrowedDocument document;
        try
        {
            document = NbtBorrowedDocument.Parse(input, options);
        }
        catch (NbtFormatException exception)
        {
            Assert.NotNull(treeError);
            if (treeError.Code == NbtErrorCodes.BadEncoding && exception.Code != NbtErrorCodes.BadEncoding)
            {
                // The tree reader stopped at a malformed string; the structure's first error is further on.
                Assert.True(exception.ByteOffset > treeError.ByteOffset, $"{exception.Message} is before {treeError.Message}");
                return;
            }

            Assert.True((treeError.Code, treeError.ByteOffset, treeError.Path) == (exception.Code, exception.ByteOffset, exception.Path), Convert.ToHexString(input.Span) + " " + options.Format + " " + treeError.Message + " / " + exception.Message);
            return;
        }

        using (document)
        {
            if (treeError is null)
            {
                Assert.Equal(tree!.Root, ElementTree.Build(document.Root));
                Assert.Equal(tree.Name, document.Name);
                return;
            }

            // Only string contents are left for decoding (or input the detector took for compressed).
            Assert.Equal(NbtErrorCodes.BadEncoding, treeError.Code);
            var error = Assert.Throws<NbtFormatException>(() => document.ToDocument());
            Assert.Equal((treeError.Code, treeError.ByteOffset), (error.Code, error.ByteOffset));
            Assert.Throws<NbtFormatException>(() => _ = (document.Name, ElementTree.Build(document.Root)));
        }
    }
}

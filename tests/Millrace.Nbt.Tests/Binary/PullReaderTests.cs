using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Binary;

public class PullReaderTests
{
    [Fact]
    public void Tokens_FollowTheTree()
    {
        var bytes = NbtSamples.HelloWorld().ToArray();
        var reader = new NbtPullReader(bytes);
        var tokens = new List<string>();
        while (reader.Read())
        {
            tokens.Add($"{reader.Token}:{reader.TagType}:{reader.GetName()}:{reader.Depth}");
        }

        Assert.Equal(["StartCompound:Compound:hello world:1", "Value:String:name:1", "EndCompound:End::0"], tokens);
    }

    [Fact]
    public void Skip_PassesOverContainersAndFindsAFieldAfterThem()
    {
        var bytes = NbtSamples.BigTest().ToArray();
        var reader = new NbtPullReader(bytes);
        Assert.True(reader.Read());
        double? found = null;
        while (reader.Read() && reader.Depth > 0)
        {
            if (reader.Token is NbtToken.StartCompound or NbtToken.StartList)
            {
                reader.Skip();
            }
            else if (reader.Token == NbtToken.Value && reader.NameEquals("doubleTest"u8))
            {
                found = reader.GetDouble();
            }
        }

        Assert.Equal(0.49312871321823148, found);
        Assert.Equal(bytes.Length, reader.BytesConsumed);
    }

    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.JavaNetwork)]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void RepeatedStrings_ComeBackAsOneString_AndStringsThatShareATableSlotStayApart(NbtFormat format)
    {
        // "axxb" and "ayyb" have the same length, first and last byte, so the string table puts them in one slot and
        // must tell them apart by their bytes. "abcd" shares a slot with "abcdxxxxxxxa" and is its first 4 bytes: only
        // the length tells them apart. "caf\u00e9" is not ASCII, so it is never kept, and is decoded right each time.
        string[] values = ["axxb", "axxb", "ayyb", "axxb", "abcdxxxxxxxa", "abcd", "caf\u00e9", "cafe", "caf\u00e9"];

        // In a list, so no name comes between them and takes their slot.
        var bytes = new NbtDocument("", new NbtList(values.Select(value => (NbtTag)new NbtString(value)))).ToArray(new NbtWriterOptions { Format = format });
        var options = new NbtReaderOptions { Format = format };
        var tree = (NbtList)NbtDocument.Read(bytes, options).Root;
        Assert.Equal(values, tree.Select(tag => ((NbtString)tag).Value));
        Assert.Same(((NbtString)tree[0]).Value, ((NbtString)tree[1]).Value);

        var reader = new NbtPullReader(bytes, options);
        var read = new List<string>();
        while (reader.Read())
        {
            if (reader.Token == NbtToken.Value)
            {
                read.Add(reader.GetString());
            }
        }

        Assert.Equal(values, read);
        Assert.Same(read[0], read[1]);
    }

    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void EveryValue_ReadsAsTheTreeHasIt(NbtFormat format)
    {
        var bytes = NbtSamples.BigTest().ToArray(new NbtWriterOptions { Format = format });
        var reader = new NbtPullReader(bytes, new NbtReaderOptions { Format = format });
        var longs = new List<long>();
        var names = new List<string>();
        while (reader.Read())
        {
            if (reader.Token != NbtToken.Value)
            {
                continue;
            }

            switch (reader.TagType)
            {
                case NbtTagType.Long:
                    longs.Add(reader.GetLong());
                    break;
                case NbtTagType.String when reader.GetName() == "name":
                    names.Add(reader.GetString());
                    break;
                case NbtTagType.ByteArray:
                    Assert.Equal(1000, reader.GetByteArray().Length);
                    break;
            }
        }

        Assert.Equal([9223372036854775807L, 11, 12, 13, 14, 15, 1264099775885L, 1264099775885L], longs);
        Assert.Equal(["Hampus", "Eggbert", "Compound tag #0", "Compound tag #1"], names);
    }

    // The getters of fixed-width numbers read them in place: in each flavour's byte order (varints for the Bedrock
    // network's ints and longs), and a value cut short by the end of the input is refused at its first byte.
    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.JavaNetwork)]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void EveryNumber_ReadsAsTheTreeHasIt_AndOneCutShortIsRefusedAtItsStart(NbtFormat format)
    {
        var numbers = new NbtCompound
        {
            ["b"] = new NbtByte(-128),
            ["s"] = new NbtShort(-12345),
            ["i"] = new NbtInt(int.MinValue + 7),
            ["l"] = new NbtLong(long.MaxValue - 9),
            ["f"] = new NbtFloat(-1.5e-30f),
            ["d"] = new NbtDouble(Math.PI),
        };
        var bytes = new NbtDocument(format == NbtFormat.JavaNetwork ? null : "r", numbers).ToArray(new NbtWriterOptions { Format = format });
        var options = new NbtReaderOptions { Format = format };
        var reader = new NbtPullReader(bytes, options);
        var read = new NbtCompound();
        var starts = new List<(NbtTagType Type, int Start)>();
        while (reader.Read())
        {
            if (reader.Token != NbtToken.Value)
            {
                continue;
            }

            starts.Add((reader.TagType, reader.BytesConsumed));
            read[reader.GetName()!] = reader.TagType switch
            {
                NbtTagType.Byte => new NbtByte(reader.GetByte()),
                NbtTagType.Short => new NbtShort(reader.GetShort()),
                NbtTagType.Int => new NbtInt(reader.GetInt()),
                NbtTagType.Long => new NbtLong(reader.GetLong()),
                NbtTagType.Float => new NbtFloat(reader.GetFloat()),
                _ => new NbtDouble(reader.GetDouble()),
            };
        }

        Assert.Equal(numbers, read);
        foreach (var (type, start) in starts.Where(s => format != NbtFormat.BedrockNetwork || s.Type is not (NbtTagType.Int or NbtTagType.Long)))
        {
            var cut = new NbtPullReader(bytes.AsSpan(0, start + 1), options);
            while (cut.Read() && !(cut.Token == NbtToken.Value && cut.BytesConsumed == start))
            {
            }

            NbtFormatException? error = null;
            try
            {
                _ = type switch
                {
                    NbtTagType.Byte => 0,
                    NbtTagType.Short => cut.GetShort(),
                    NbtTagType.Int => cut.GetInt(),
                    NbtTagType.Long => cut.GetLong(),
                    NbtTagType.Float => cut.GetFloat(),
                    _ => cut.GetDouble(),
                };
            }
            catch (NbtFormatException exception)
            {
                error = exception;
            }

            if (type == NbtTagType.Byte)
            {
                // One byte is there: the cut is after it.
                Assert.Null(error);
                continue;
            }

            Assert.NotNull(error);
            Assert.Equal(start, error.ByteOffset);
            Assert.Equal(NbtErrorCodes.Truncated, error.Error.Code);
        }
    }

    // A string value is read in place too: its length prefix cut short is a truncation, its bytes cut short a length
    // that needs more bytes than remain, both at the prefix; a whole one is the tree's string (UTF-8 in Bedrock's
    // flavours, Modified UTF-8 in Java's).
    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.JavaNetwork)]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void AStringValue_ReadsAsTheTreeHasIt_AndOneCutShortIsRefusedAtItsPrefix(NbtFormat format)
    {
        const string Text = "caf\u00e9 \U0001F600 nul\0";
        var bytes = new NbtDocument(format == NbtFormat.JavaNetwork ? null : "r", new NbtCompound { ["t"] = new NbtString(Text) }).ToArray(new NbtWriterOptions { Format = format });
        var options = new NbtReaderOptions { Format = format };
        var start = -1;
        var reader = new NbtPullReader(bytes, options);
        while (reader.Read())
        {
            if (reader.Token == NbtToken.Value)
            {
                start = reader.BytesConsumed;
                Assert.Equal(Text, reader.GetString());
            }
        }

        foreach (var (cut, code) in new[] { (start + 1, NbtErrorCodes.Truncated), (start + 4, NbtErrorCodes.BadLength) })
        {
            if (format == NbtFormat.BedrockNetwork && code == NbtErrorCodes.Truncated)
            {
                // A one-byte varint length is never cut short by one byte.
                continue;
            }

            var partial = new NbtPullReader(bytes.AsSpan(0, cut), options);
            while (partial.Read() && partial.Token != NbtToken.Value)
            {
            }

            NbtFormatException? error = null;
            try
            {
                partial.GetString();
            }
            catch (NbtFormatException exception)
            {
                error = exception;
            }

            Assert.NotNull(error);
            Assert.Equal((code, (long)start), (error.Error.Code, error.ByteOffset));
        }
    }

    // Skip walks the bytes on its own, without Read's per-token state, and takes a compound's numbers, strings and lists
    // of numbers in one pass over the raw bytes: at every container of every flavour it must stop where reading token
    // by token to the container's end does, and refuse corrupt, truncated or too deep input with the same error at the
    // same offset.
    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.JavaNetwork)]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void Skip_StopsWhereReadingTokenByTokenDoes_AndFailsAtTheSameOffset(NbtFormat format)
    {
        var random = new Random(16);
        var documents = Documents(random, format);
        for (var trial = 0; trial < 600; trial++)
        {
            var bytes = documents[trial % documents.Length];
            var options = new NbtReaderOptions { Format = format, MaxDepth = trial % 5 == 4 ? 1 + (trial / 5 % 4) : 512 };
            var input = trial % 7 == 6 ? bytes.AsSpan(0, random.Next(bytes.Length)).ToArray() : (byte[])bytes.Clone();
            if (trial >= documents.Length && input.Length > 0)
            {
                input[random.Next(input.Length)] = (byte)random.Next(256);
            }

            for (var container = 0; ; container++)
            {
                var skipped = Walk(input, options, container, skip: true);
                Assert.Equal(Walk(input, options, container, skip: false), skipped);
                if (skipped.StartsWith("no container", StringComparison.Ordinal) || skipped.StartsWith("error", StringComparison.Ordinal))
                {
                    break;
                }
            }
        }
    }

    // The edges of Skip's pass over raw bytes, where it must hand over to the careful steps: containers opened exactly
    // up to MaxDepth (a list of numbers counts as one), and a list of compounds whose count is just above or below
    // what the bytes after it could hold.
    [Fact]
    public void Skip_AtMaxDepthAndAtCountsThatJustFit_StopsOrFailsWhereReadingDoes()
    {
        foreach (var format in new[] { NbtFormat.Java, NbtFormat.Bedrock })
        {
            for (var nesting = 0; nesting < 6; nesting++)
            {
                foreach (var inner in new NbtTag[] { new NbtList([new NbtByte(1), new NbtByte(2)]), new NbtList([new NbtCompound { { "c", new NbtByte(3) } }]), new NbtCompound() })
                {
                    var tag = inner;
                    for (var level = 0; level < nesting; level++)
                    {
                        tag = level % 2 == 0 ? new NbtCompound { { "x", new NbtInt(level) }, { "in", tag } } : new NbtList([tag]);
                    }

                    var bytes = new NbtDocument("r", new NbtCompound { { "t", tag }, { "after", new NbtShort(5) } }).ToArray(new NbtWriterOptions { Format = format });
                    for (var maxDepth = 1; maxDepth < 9; maxDepth++)
                    {
                        var options = new NbtReaderOptions { Format = format, MaxDepth = maxDepth };
                        Assert.Equal(Walk(bytes, options, 0, skip: false), Walk(bytes, options, 0, skip: true));
                    }
                }
            }
        }

        // {l: [{}, {}]} with the list's count set from 0 to 6: 2 fits, 3 takes the root's end as an element, 4 and more
        // are more than the bytes after the count could hold.
        byte[] list = [10, 0, 1, (byte)'r', 9, 0, 1, (byte)'l', 10, 0, 0, 0, 2, 0, 0, 0];
        for (var count = 0; count < 7; count++)
        {
            var input = (byte[])list.Clone();
            input[12] = (byte)count;
            Assert.Equal(Walk(input, new NbtReaderOptions(), 0, skip: false), Walk(input, new NbtReaderOptions(), 0, skip: true));
        }
    }

    // Deeper than the 16 frames the reader keeps inline: Skip's frames then live in its heap array, resized on the way.
    [Fact]
    public void Skip_OverCompoundsAndListsNestedDeeperThanTheInlineFrames_StopsWhereReadingDoes()
    {
        NbtTag tag = new NbtInt(7);
        for (var level = 0; level < 40; level++)
        {
            tag = level % 3 == 2
                ? new NbtList([tag])
                : new NbtCompound { { "before", new NbtString("x") }, { "child", tag }, { "after", new NbtShort(1) } };
        }

        var bytes = new NbtDocument("deep", (NbtCompound)tag).ToArray();
        var options = new NbtReaderOptions();
        for (var container = 0; container < 45; container++)
        {
            Assert.Equal(Walk(bytes, options, container, skip: false), Walk(bytes, options, container, skip: true));
        }
    }

    // Reads to the container-th container, passes over it by Skip or by Read, and describes where that left the reader.
    private static string Walk(byte[] input, NbtReaderOptions options, int container, bool skip)
    {
        try
        {
            var reader = new NbtPullReader(input, options);
            var seen = 0;
            while (reader.Read())
            {
                if (reader.Token is not (NbtToken.StartCompound or NbtToken.StartList) || seen++ < container)
                {
                    continue;
                }

                if (skip)
                {
                    reader.Skip();
                }
                else
                {
                    var depth = reader.Depth - 1;
                    while (reader.Depth > depth && reader.Read())
                    {
                    }
                }

                var after = $"{reader.Token} {reader.TagType} {reader.Depth} {reader.BytesConsumed} {reader.HasName}";
                return reader.Read() ? $"{after}, then {reader.Token} {reader.TagType} {reader.Depth} {reader.GetName()}" : after + ", then the end";
            }

            return "no container " + container;
        }
        catch (NbtFormatException exception)
        {
            return $"error {exception.Code} at {exception.ByteOffset}";
        }
    }

    // ReadMember and ReadElement are Read for a reader known to be in a compound or a list: every token, and every
    // error's code and offset, the same, over random trees of every flavour, cut short or with a byte changed.
    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.JavaNetwork)]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void ReadMemberAndReadElement_GiveTheTokensOfRead_AndFailAtTheSameOffset(NbtFormat format)
    {
        var random = new Random(61);
        var documents = Documents(random, format);
        var options = new NbtReaderOptions { Format = format };
        for (var trial = 0; trial < 400; trial++)
        {
            var bytes = documents[trial % documents.Length];
            var input = trial % 3 == 2 ? bytes.AsSpan(0, random.Next(bytes.Length)).ToArray() : (byte[])bytes.Clone();
            if (trial >= documents.Length && trial % 3 == 1 && input.Length > 0)
            {
                input[random.Next(input.Length)] = (byte)random.Next(256);
            }

            Assert.Equal(PullReaderSteps.Walk(input, options, byContainer: false), PullReaderSteps.Walk(input, options, byContainer: true));
        }
    }

    [Fact]
    public void ReadMemberAndReadElement_OutsideTheirKindOfContainer_Throw()
    {
        var bytes = new NbtDocument("r", new NbtCompound { { "l", new NbtList([new NbtByte(1)]) } }).ToArray();
        Assert.Throws<InvalidOperationException>(() => new NbtPullReader(bytes).ReadMember());
        Assert.Throws<InvalidOperationException>(() => new NbtPullReader(bytes).ReadElement());
        Assert.Throws<InvalidOperationException>(() =>
        {
            var reader = new NbtPullReader(bytes);
            reader.Read();
            reader.ReadElement();
        });
        Assert.Throws<InvalidOperationException>(() =>
        {
            var reader = new NbtPullReader(bytes);
            reader.Read();
            reader.Read();
            reader.ReadMember();
        });
        Assert.Throws<InvalidOperationException>(() =>
        {
            var reader = new NbtPullReader(bytes);
            while (reader.Read())
            {
            }

            reader.ReadMember();
        });
    }

    // bigtest and 20 random trees, written in one flavour: the inputs the walks above cut and corrupt.
    private static byte[][] Documents(Random random, NbtFormat format) => new[] { NbtSamples.BigTest() }
        .Concat(Enumerable.Range(0, 20).Select(_ => new NbtDocument("r", RandomTrees.Compound(random, 0))))
        .Select(document => document.ToArray(new NbtWriterOptions { Format = format }))
        .ToArray();

    [Fact]
    public void TruncatedInput_RaisesNbtFormatException()
    {
        var bytes = NbtSamples.BigTest().ToArray();
        for (var length = 0; length < bytes.Length; length += 7)
        {
            var exception = Record.Exception(() =>
            {
                var reader = new NbtPullReader(bytes.AsSpan(0, length));
                while (reader.Read())
                {
                    reader.Skip();
                }
            });
            Assert.IsType<NbtFormatException>(exception);
        }
    }

    // Reading to the end refuses what follows the root, at its offset, as the tree reader does; it read to the root's end
    // and said the input was over.
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void BytesAfterTheRoot_AreRefusedAtTheEnd(bool skipRoot)
    {
        var bytes = NbtSamples.BigTest().ToArray();
        var input = (byte[])[.. bytes, 0, 10];

        var exception = Assert.Throws<NbtFormatException>(() =>
        {
            var reader = new NbtPullReader(input);
            while (reader.Read())
            {
                if (skipRoot)
                {
                    reader.Skip();
                }
            }
        });

        Assert.Equal(NbtErrorCodes.TrailingBytes, exception.Code);
        Assert.Equal(bytes.Length, exception.ByteOffset);
        Assert.Equal(Assert.Throws<NbtFormatException>(() => NbtDocument.Read(input)).Message, exception.Message);
    }

    [Fact]
    public void GetterOnTheWrongToken_Throws()
    {
        var bytes = NbtSamples.HelloWorld().ToArray();
        var reader = new NbtPullReader(bytes);
        reader.Read();
        Assert.Throws<InvalidOperationException>(() => ReadInt(bytes));
    }

    private static int ReadInt(byte[] bytes)
    {
        var reader = new NbtPullReader(bytes);
        reader.Read();
        return reader.GetInt();
    }

    [Theory]
    [InlineData(NbtCompression.None)]
    [InlineData(NbtCompression.Gzip)]
    [InlineData(NbtCompression.Zlib)]
    public void Decompress_GivesThePullReaderTheRawBytesOfACompressedFile(NbtCompression compression)
    {
        var raw = NbtSamples.HelloWorld().ToArray();
        var file = new NbtFile(NbtSamples.HelloWorld(), NbtFormat.Java, compression).ToArray();

        Assert.Equal(compression, NbtCompressionCodec.Detect(file));
        using var decompressed = NbtCompressionCodec.Decompress(file, compression, maxBytes: 1024);
        Assert.Equal(raw, decompressed.WrittenSpan.ToArray());
    }

    [Theory]
    [InlineData(NbtCompression.None)]
    [InlineData(NbtCompression.Gzip)]
    public void Decompress_PastTheQuota_Throws(NbtCompression compression)
    {
        var file = new NbtFile(NbtSamples.BigTest(), NbtFormat.Java, compression).ToArray();
        Assert.Throws<NbtFormatException>(() => NbtCompressionCodec.Decompress(file, compression, maxBytes: 100).Dispose());
    }
}

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

    // Skip walks the bytes on its own, without Read's per-token state: at every container of every flavour it must stop
    // where reading token by token to the container's end does, and refuse corrupt bytes at the same offset.
    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void Skip_StopsWhereReadingTokenByTokenDoes_AndFailsAtTheSameOffset(NbtFormat format)
    {
        var options = new NbtReaderOptions { Format = format };
        var bytes = NbtSamples.BigTest().ToArray(new NbtWriterOptions { Format = format });
        var random = new Random(16);
        for (var trial = 0; trial < 300; trial++)
        {
            var input = (byte[])bytes.Clone();
            if (trial > 0)
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
            return $"error {exception.ByteOffset}";
        }
    }

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

        Assert.Equal(compression, NbtCompressionDetector.Detect(file));
        using var decompressed = NbtCompressionDetector.Decompress(file, compression, maxBytes: 1024);
        Assert.Equal(raw, decompressed.WrittenSpan.ToArray());
    }

    [Theory]
    [InlineData(NbtCompression.None)]
    [InlineData(NbtCompression.Gzip)]
    public void Decompress_PastTheQuota_Throws(NbtCompression compression)
    {
        var file = new NbtFile(NbtSamples.BigTest(), NbtFormat.Java, compression).ToArray();
        Assert.Throws<NbtFormatException>(() => NbtCompressionDetector.Decompress(file, compression, maxBytes: 100).Dispose());
    }
}

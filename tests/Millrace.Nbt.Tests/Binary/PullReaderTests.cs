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

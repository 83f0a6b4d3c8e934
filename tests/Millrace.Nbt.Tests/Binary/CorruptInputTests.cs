using System.Text;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Region;
using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Binary;

/// <summary>Truncated, corrupted, trailing or hostile input is refused with a located <see cref="NbtFormatException"/>.</summary>
public class CorruptInputTests
{
    public static TheoryData<NbtCompression> Compressions => [NbtCompression.Gzip, NbtCompression.Zlib];

    [Theory]
    [MemberData(nameof(Compressions))]
    public void EveryTruncation_OfACompressedFile_IsRefused(NbtCompression compression)
    {
        var file = NbtSamples.BigTest().ToArray(new NbtWriterOptions { Compression = compression });
        for (var length = 1; length < file.Length; length++)
        {
            var cut = file.AsSpan(0, length).ToArray();
            Assert.Throws<NbtFormatException>(() => NbtDocument.Read(cut));
            Assert.Throws<NbtFormatException>(() => NbtFile.Read(cut));
        }
    }

    [Theory]
    [MemberData(nameof(Compressions))]
    public void TrailingBytes_AfterACompressedFile_AreRefused(NbtCompression compression)
    {
        var file = NbtSamples.HelloWorld().ToArray(new NbtWriterOptions { Compression = compression });

        // zlib stops at its stream's end and leaves the byte unread, which says where it is; gzip reads it as the start of
        // a next member, and the trailer, read from the input's end, then fails to match.
        var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read([.. file, 0x00]));
        Assert.Equal(compression == NbtCompression.Gzip ? file.Length + 1 - 8 : file.Length, error.ByteOffset);
    }

    [Theory]
    [MemberData(nameof(Compressions))]
    public void BitFlips_InACompressedFile_AreRefusedOrHarmless(NbtCompression compression)
    {
        var original = NbtSamples.BigTest();
        var file = original.ToArray(new NbtWriterOptions { Compression = compression });
        var random = new Random(4242);
        for (var trial = 0; trial < 300; trial++)
        {
            var damaged = (byte[])file.Clone();
            damaged[random.Next(damaged.Length)] ^= (byte)(1 << random.Next(8));
            try
            {
                // A flip in a header field that changes nothing (gzip's OS byte, mtime) reads the same tree.
                Assert.Equal(original, NbtDocument.Read(damaged));
            }
            catch (NbtFormatException)
            {
            }
        }
    }

    [Fact]
    public void ErrorInsideACompressedFile_SaysTheOffsetCountsDecompressedBytes()
    {
        var raw = NbtSamples.HelloWorldBytes.AsSpan(0, 20).ToArray();
        using var compressed = new PooledBufferWriter();
        NbtCompressionCodec.Compress(raw, NbtCompression.Gzip, compressed);

        var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(compressed.WrittenSpan));
        Assert.Contains("of the gzip-decompressed data", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new byte[] { 0x0A })]
    [InlineData(new byte[] { 0x0A, 0x00 })]
    [InlineData(new byte[] { 0x0A, 0x00, 0x00 })]
    public void RootShorterThanItsHeader_IsRefused(byte[] data)
    {
        Assert.Throws<NbtFormatException>(() => NbtFile.Read(data));
    }

    [Fact]
    public void ZlibLookingHeaderWithGarbage_IsAnNbtError()
    {
        byte[] data = [0x28, 0x72, 0x00, 0x00, 0x00, 0x00];

        Assert.Throws<NbtFormatException>(() => NbtFile.Read(data));
        Assert.Throws<NbtFormatException>(() => NbtFile.Read(data, NbtFormat.Bedrock));
        Assert.Throws<NbtFormatException>(() => NbtDocument.Read(data));
    }

    [Fact]
    public void InputReadWholeByTwoFlavoursWithDifferentTrees_IsAmbiguous()
    {
        // An unnamed compound holding one unnamed int: 0x01020304 in Java, 0x04030201 in Bedrock.
        byte[] data = [0x0A, 0x00, 0x00, 0x03, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x00];

        var error = Assert.Throws<NbtFormatException>(() => NbtFile.Read(data));
        Assert.Contains("name its flavour", error.Message, StringComparison.Ordinal);
        Assert.Equal(NbtFormat.Bedrock, NbtFile.Read(data, NbtFormat.Bedrock).Format);
    }

    [Fact]
    public void InputReadWholeByTwoFlavoursWithTheSameTree_IsJava()
    {
        byte[] data = [0x0A, 0x00, 0x00, 0x00];

        Assert.Equal(NbtFormat.Java, NbtFile.Read(data).Format);
    }

    [Fact]
    public void DeepNesting_WithARaisedLimit_IsAnErrorNotACrash()
    {
        const int Depth = 100_000;
        var data = new List<byte> { 0x09, 0x00, 0x00 };
        for (var i = 0; i < Depth; i++)
        {
            data.AddRange([0x09, 0x00, 0x00, 0x00, 0x01]);
        }

        data.AddRange([0x00, 0x00, 0x00, 0x00, 0x00]);
        var bytes = data.ToArray();
        var options = new NbtReaderOptions { MaxDepth = Depth * 2 };

        // On a thread with a small stack, so the test does not depend on the runner's.
        Exception? caught = null;
        var thread = new Thread(() => caught = Record.Exception(() => NbtDocument.Read(bytes, options)), 256 * 1024);
        thread.Start();
        thread.Join();
        Assert.IsType<NbtFormatException>(caught);

        var reader = new NbtPullReader(bytes, options);
        reader.Read();
        reader.Skip();
        Assert.False(reader.Read());
    }

    [Fact]
    public void InvalidOptions_AreRefusedWhereTheyAreUsed_EveryProblemAtOnce()
    {
        var invalid = new NbtReaderOptions { MaxDepth = 0, MaxBytes = 0, Format = (NbtFormat)4, SnbtSyntax = (Millrace.Nbt.Snbt.SnbtSyntax)7 };
        var error = Assert.Throws<ArgumentException>(invalid.Validate);
        Assert.Equal(
            "Invalid NBT reader options:\n- Format is not an NBT flavour (was 4).\n- MaxDepth must be at least 1 (was 0).\n- MaxBytes must be at least 1 (was 0).\n- SnbtSyntax is not an SNBT syntax (was 7).",
            error.Message);
        byte[] empty = [10, 0, 0, 0];
        Assert.Throws<ArgumentException>(() => NbtDocument.Read(empty, invalid));
        Assert.Throws<ArgumentException>(() => NbtFile.Read(empty, options: invalid));
        Assert.Throws<ArgumentException>(() => new NbtPullReader(empty, invalid));
        Assert.Throws<ArgumentException>(() => Millrace.Nbt.Snbt.SnbtParser.Parse("{}", invalid));

        var writer = new NbtWriterOptions { Format = (NbtFormat)(-1), Compression = (NbtCompression)9 };
        Assert.Equal(
            "Invalid NBT writer options:\n- Format is not an NBT flavour (was -1).\n- Compression is not a compression NBT files use (was 9).",
            Assert.Throws<ArgumentException>(writer.Validate).Message);
        Assert.Throws<ArgumentException>(() => NbtDocument.Read(empty).ToArray(writer));
    }

    [Theory]
    [InlineData("bool(")]
    [InlineData("uuid(")]
    public void SnbtNestedFunctions_CountAsNesting(string opener)
    {
        var open = string.Concat(Enumerable.Repeat(opener, 30_000));
        Assert.Throws<NbtFormatException>(() => SnbtParser.Parse(open));
        Assert.Throws<NbtFormatException>(() => SnbtParser.Parse(open + "1" + new string(')', 30_000)));
    }

    [Fact]
    public void SnbtDeepNesting_WithARaisedLimit_IsAnErrorNotACrash()
    {
        var text = new string('[', 200_000);
        Exception? caught = null;
        var thread = new Thread(() => caught = Record.Exception(() => SnbtParser.Parse(text, new NbtReaderOptions { MaxDepth = 1_000_000 })), 256 * 1024);
        thread.Start();
        thread.Join();
        Assert.IsType<NbtFormatException>(caught);
    }

    [Fact]
    public void SnbtHugeNumberWithSeparators_DoesNotOverflowTheStack()
    {
        var zeros = new StringBuilder("0");
        var ones = new StringBuilder("1");
        for (var i = 0; i < 1_000_000; i++)
        {
            zeros.Append("_0");
            ones.Append("_1");
        }

        Assert.Equal(new NbtDouble(0.5), SnbtParser.Parse(zeros + ".5d"));

        // A million digits are past a double's range: refused, not rounded to infinity.
        Assert.Contains("out of its type's range", Assert.Throws<NbtFormatException>(() => SnbtParser.Parse(ones + ".5d")).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RegionWhoseChunksShareSectors_IsRefused()
    {
        var region = new RegionFile();
        region.WriteChunk(0, 0, NbtSamples.HelloWorld());
        var bytes = region.ToArray();
        // Every location entry points at the first chunk's sectors.
        for (var i = 1; i < 1024; i++)
        {
            bytes.AsSpan(0, 4).CopyTo(bytes.AsSpan(i * 4));
        }

        var error = Assert.Throws<NbtFormatException>(() => RegionFile.Load(bytes));
        Assert.Contains("same sector", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RegionChunkLongerThanItsSectors_IsRefused()
    {
        var region = new RegionFile();
        region.WriteChunk(0, 0, NbtSamples.HelloWorld());
        var bytes = region.ToArray();
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(8192), 4093);

        Assert.Throws<NbtFormatException>(() => RegionFile.Load(bytes));
    }

    [Fact]
    public void RegionChunkInAnotherCompressionThanDeclared_IsRefused()
    {
        var region = new RegionFile();
        region.WriteChunk(0, 0, NbtSamples.HelloWorld(), RegionCompression.Zlib);
        var bytes = region.ToArray();
        bytes[8192 + 4] = (byte)RegionCompression.Gzip;

        Assert.Throws<NbtFormatException>(() => RegionFile.Load(bytes).ReadChunk(0, 0));
    }

    [Theory]
    [InlineData(RegionCompression.Gzip)]
    [InlineData(RegionCompression.Zlib)]
    [InlineData(RegionCompression.Lz4)]
    public void RegionChunk_EveryTruncationOfItsBody_IsRefused(RegionCompression compression)
    {
        var region = new RegionFile();
        region.WriteChunk(0, 0, NbtSamples.BigTest(), compression);
        var bytes = region.ToArray();
        var length = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(8192));
        for (var cut = 2; cut < length; cut++)
        {
            var damaged = (byte[])bytes.Clone();
            System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(damaged.AsSpan(8192), cut);
            Assert.Throws<NbtFormatException>(() => RegionFile.Load(damaged).ReadChunk(0, 0));
        }
    }

    [Fact]
    public async Task ReadAsync_GivesTheSameTreeOrTheSameError_HoweverTheBytesArrive()
    {
        var random = new Random(2026);
        var valid = NbtSamples.BigTest().ToArray(new NbtWriterOptions { Compression = NbtCompression.Gzip });
        for (var trial = 0; trial < 200; trial++)
        {
            var input = (byte[])valid.Clone();
            if (trial % 2 == 1)
            {
                input[random.Next(input.Length)] ^= (byte)(1 << random.Next(8));
            }

            int[] chunks = [.. Enumerable.Range(0, 1 + random.Next(5)).Select(_ => 1 + random.Next(trial % 3 == 0 ? 3 : 5000))];
            var expected = Record.Exception(() => NbtDocument.Read(input));
            NbtDocument? streamed = null;
            var actual = await Record.ExceptionAsync(async () => streamed = await NbtDocument.ReadAsync(new ChunkedStream(input, chunks)));

            Assert.Equal(expected?.Message, actual?.Message);
            if (expected is null)
            {
                Assert.Equal(NbtDocument.Read(input), streamed);
            }
        }
    }

    [Fact]
    public void TreeNestedDeeperThanTheStack_IsRefusedByTheWriters()
    {
        var root = new NbtList(NbtTagType.List);
        var current = root;
        for (var i = 0; i < 1_000_000; i++)
        {
            var next = new NbtList(NbtTagType.List);
            current.Add(next);
            current = next;
        }

        Exception? binary = null, text = null;
        var thread = new Thread(
            () =>
            {
                binary = Record.Exception(() => new NbtDocument(string.Empty, root).ToArray());
                text = Record.Exception(() => SnbtWriter.Write(root));
            },
            256 * 1024);
        thread.Start();
        thread.Join();
        Assert.IsType<ArgumentException>(binary);
        Assert.IsType<ArgumentException>(text);
    }

    [Fact]
    public void EmptyCompoundTag_StaysEmpty()
    {
        Assert.Empty((NbtCompound)NbtDocument.Read([0x0A, 0x00, 0x00, 0x00]).Root);
    }
}

using System.Buffers;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Binary;

public class BinaryFormatTests
{
    [Fact]
    public void HelloWorld_MatchesItsPublishedBytes()
    {
        Assert.Equal(33, NbtSamples.HelloWorldBytes.Length);
        Assert.Equal(NbtSamples.HelloWorldBytes, NbtSamples.HelloWorld().ToArray());
        Assert.Equal(NbtSamples.HelloWorld(), NbtDocument.Read(NbtSamples.HelloWorldBytes));
    }

    [Fact]
    public void BigTest_Is1544BytesAndRoundTrips()
    {
        var bytes = NbtSamples.BigTest().ToArray();
        Assert.Equal(1544, bytes.Length);
        var read = NbtDocument.Read(bytes);
        Assert.Equal(NbtSamples.BigTest(), read);
        var level = (NbtCompound)read.Root;
        Assert.Equal("Hampus", level.Get<NbtCompound>("nested compound test").Get<NbtCompound>("ham").GetString("name"));
        Assert.Equal(0.75f, level.Get<NbtCompound>("nested compound test").Get<NbtCompound>("ham").GetValue<float>("value"));
        Assert.Equal(62, level.Get<NbtByteArray>("byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))").Value[1]);
    }

    [Theory]
    [InlineData(NbtFormat.Java, 1544)]
    [InlineData(NbtFormat.JavaNetwork, 1537)]
    [InlineData(NbtFormat.Bedrock, 1544)]
    [InlineData(NbtFormat.BedrockNetwork, 1473)] // 1544 − 27 one-byte string lengths + 3 for the max int and long − 39 for small longs − 8 for varint lengths
    public void BigTest_RoundTripsInEveryFlavour(NbtFormat format, int length)
    {
        var bytes = NbtSamples.BigTest().ToArray(new NbtWriterOptions { Format = format });
        Assert.Equal(length, bytes.Length);
        Assert.Equal(NbtSamples.BigTest().Root, NbtDocument.Read(bytes, new NbtReaderOptions { Format = format }).Root);
    }

    [Theory]
    [InlineData(NbtCompression.Gzip)]
    [InlineData(NbtCompression.Zlib)]
    public void Compression_IsDetectedOnRead(NbtCompression compression)
    {
        var compressed = NbtSamples.BigTest().ToArray(new NbtWriterOptions { Compression = compression });
        Assert.Equal(NbtSamples.BigTest(), NbtDocument.Read(compressed));
        Assert.Equal(compression, NbtFile.Read(compressed).Compression);
    }

    public static TheoryData<NbtFormat, NbtTag, byte[]> Golden => new()
    {
        { NbtFormat.Java, new NbtByte(-2), [0xFE] },
        { NbtFormat.Java, new NbtShort(0x1234), [0x12, 0x34] },
        { NbtFormat.Bedrock, new NbtShort(0x1234), [0x34, 0x12] },
        { NbtFormat.Java, new NbtInt(-2), [0xFF, 0xFF, 0xFF, 0xFE] },
        { NbtFormat.Bedrock, new NbtInt(1), [0x01, 0, 0, 0] },
        { NbtFormat.BedrockNetwork, new NbtInt(-2), [0x03] },
        { NbtFormat.BedrockNetwork, new NbtInt(150), [0xAC, 0x02] },
        { NbtFormat.Java, new NbtLong(1), [0, 0, 0, 0, 0, 0, 0, 1] },
        { NbtFormat.BedrockNetwork, new NbtLong(-1), [0x01] },
        { NbtFormat.Java, new NbtFloat(1f), [0x3F, 0x80, 0, 0] },
        { NbtFormat.BedrockNetwork, new NbtFloat(1f), [0, 0, 0x80, 0x3F] },
        { NbtFormat.Java, new NbtDouble(1d), [0x3F, 0xF0, 0, 0, 0, 0, 0, 0] },
        { NbtFormat.Java, new NbtByteArray([1, 2]), [0, 0, 0, 2, 1, 2] },
        { NbtFormat.BedrockNetwork, new NbtByteArray([1, 2]), [0x04, 1, 2] },
        { NbtFormat.Java, new NbtString("hi"), [0, 2, (byte)'h', (byte)'i'] },
        { NbtFormat.Bedrock, new NbtString("hi"), [2, 0, (byte)'h', (byte)'i'] },
        { NbtFormat.BedrockNetwork, new NbtString("hi"), [2, (byte)'h', (byte)'i'] },
        { NbtFormat.Java, new NbtString("\0"), [0, 2, 0xC0, 0x80] },
        { NbtFormat.Bedrock, new NbtString("\0"), [1, 0, 0] },
        { NbtFormat.Java, new NbtString("\U0001F600"), [0, 6, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80] },
        { NbtFormat.Bedrock, new NbtString("\U0001F600"), [4, 0, 0xF0, 0x9F, 0x98, 0x80] },
        { NbtFormat.Java, new NbtIntArray([1]), [0, 0, 0, 1, 0, 0, 0, 1] },
        { NbtFormat.BedrockNetwork, new NbtIntArray([1, -1]), [0x04, 0x02, 0x01] },
        { NbtFormat.Java, new NbtLongArray([1]), [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1] },
        { NbtFormat.Java, new NbtList(), [0, 0, 0, 0, 0] },
        { NbtFormat.Java, new NbtList([new NbtByte(1)]), [1, 0, 0, 0, 1, 1] },
        { NbtFormat.BedrockNetwork, new NbtList([new NbtByte(1)]), [1, 0x02, 1] },
        { NbtFormat.Java, new NbtCompound { { "a", new NbtByte(1) } }, [1, 0, 1, (byte)'a', 1, 0] },
        { NbtFormat.Bedrock, new NbtByte(-2), [0xFE] },
        { NbtFormat.BedrockNetwork, new NbtByte(-2), [0xFE] },
        { NbtFormat.BedrockNetwork, new NbtShort(0x1234), [0x34, 0x12] },
        { NbtFormat.Bedrock, new NbtLong(1), [1, 0, 0, 0, 0, 0, 0, 0] },
        { NbtFormat.BedrockNetwork, new NbtLong(long.MinValue), [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01] },
        { NbtFormat.Bedrock, new NbtFloat(1f), [0, 0, 0x80, 0x3F] },
        { NbtFormat.Bedrock, new NbtDouble(1d), [0, 0, 0, 0, 0, 0, 0xF0, 0x3F] },
        { NbtFormat.BedrockNetwork, new NbtDouble(-2d), [0, 0, 0, 0, 0, 0, 0, 0xC0] },
        { NbtFormat.Bedrock, new NbtByteArray([1, 2]), [2, 0, 0, 0, 1, 2] },
        { NbtFormat.Bedrock, new NbtIntArray([1]), [1, 0, 0, 0, 1, 0, 0, 0] },
        { NbtFormat.Bedrock, new NbtLongArray([1]), [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0] },
        { NbtFormat.BedrockNetwork, new NbtLongArray([1, -1]), [0x04, 0x02, 0x01] },
        { NbtFormat.Bedrock, new NbtList([new NbtShort(1)]), [2, 1, 0, 0, 0, 1, 0] },
        { NbtFormat.BedrockNetwork, new NbtList(), [0, 0] },
        { NbtFormat.Bedrock, new NbtCompound { { "a", new NbtByte(1) } }, [1, 1, 0, (byte)'a', 1, 0] },
        { NbtFormat.BedrockNetwork, new NbtCompound { { "a", new NbtInt(1) } }, [3, 1, (byte)'a', 2, 0] },
    };

    [Theory]
    [MemberData(nameof(Golden))]
    public void EveryTagInEveryFlavour_MatchesHandComputedBytes(NbtFormat format, NbtTag tag, byte[] payload)
    {
        // Java network roots are nameless: type byte, then the payload.
        var bytes = new NbtDocument(null, tag).ToArray(new NbtWriterOptions { Format = format == NbtFormat.Java ? NbtFormat.JavaNetwork : format });
        byte[] nameBytes = format switch { NbtFormat.Java => [], NbtFormat.BedrockNetwork => [0], _ => [0, 0] };
        byte[] expected = [(byte)tag.Type, .. nameBytes, .. payload];
        Assert.Equal(expected, bytes);
        var read = NbtDocument.Read(bytes, new NbtReaderOptions { Format = format == NbtFormat.Java ? NbtFormat.JavaNetwork : format });
        Assert.Equal(tag, read.Root);
    }

    [Fact]
    public void JavaNetwork_HasANamelessRootOfAnyType()
    {
        var bytes = new NbtDocument(null, new NbtString("x")).ToArray(new NbtWriterOptions { Format = NbtFormat.JavaNetwork });
        Assert.Equal(new byte[] { 8, 0, 1, (byte)'x' }, bytes);
        var read = NbtDocument.Read(bytes, new NbtReaderOptions { Format = NbtFormat.JavaNetwork });
        Assert.Null(read.Name);
    }

    // The writer narrows short ASCII names and strings a block at a time (8 chars, or a string's first and last 4 or 2
    // chars at once): every length up to 20, with a char at each end of the ASCII range, or just outside it, at every
    // position, in a name and in a value, must give what Modified UTF-8 says, in both byte orders (Bedrock writes UTF-8,
    // which differs only for U+0000 and surrogates, so it is not given those).
    [Theory]
    [InlineData(NbtFormat.Java, "\0\u0001\u007F\u0080\u00FF\u0100\u07FF\u0800\uD83D\uFFFF")]
    [InlineData(NbtFormat.Bedrock, "\u0001\u007F\u0080\u00FF\u0100\u07FF\u0800\uFFFF")]
    public void ShortStrings_AnyCharAtAnyPosition_WrittenAsModifiedUtf8(NbtFormat format, string oddChars)
    {
        foreach (var odd in oddChars)
        {
            for (var length = 1; length <= 20; length++)
            {
                for (var at = 0; at < length; at++)
                {
                    var text = string.Create(length, (odd, at), static (chars, state) =>
                    {
                        for (var i = 0; i < chars.Length; i++)
                        {
                            chars[i] = i == state.at ? state.odd : (char)('a' + (i % 26));
                        }
                    });
                    var bytes = new NbtDocument("", new NbtCompound { { text, new NbtString(text) } }).ToArray(new NbtWriterOptions { Format = format });

                    byte[] encoded = [.. Length(ReferenceModifiedUtf8(text).Length, format), .. ReferenceModifiedUtf8(text)];
                    byte[] expected = [10, 0, 0, 8, .. encoded, .. encoded, 0];
                    Assert.True(expected.AsSpan().SequenceEqual(bytes), $"U+{(int)odd:X4} at {at} of {length}");
                }
            }
        }

        static byte[] Length(int length, NbtFormat format) =>
            format == NbtFormat.Java ? [(byte)(length >> 8), (byte)length] : [(byte)length, (byte)(length >> 8)];
    }

    // The encoder and decoder take the platform's UTF-8 transcoder for text the two encodings write alike, and their own
    // loops for the rest: random text of every kind (U+0000, surrogate pairs, lone surrogates, each range of lengths) must
    // encode as Java's writeUTF does and read back; random bytes must be read, or refused at the same byte, as Java's
    // readUTF reads them.
    [Fact]
    public void ModifiedUtf8_RandomTextAndBytes_AgreeWithJavasCodec()
    {
        var random = new Random(45);
        string[] pools = ["abc", "\u00e9\u00a7\u00fc", "\u4e2d\u6587\uffff", "\0", "\uD83D\uDE00", "\uD800", "\uDC00"];
        for (var round = 0; round < 2_000; round++)
        {
            var text = new System.Text.StringBuilder();
            var kinds = pools.Where(_ => random.Next(3) == 0).DefaultIfEmpty("x").ToArray();
            for (var length = random.Next(0, 300); text.Length < length;)
            {
                var pool = kinds[random.Next(kinds.Length)];
                text.Append(pool.Length == 2 && char.IsHighSurrogate(pool[0]) ? pool : pool[random.Next(pool.Length)].ToString());
            }

            var expected = ReferenceModifiedUtf8(text.ToString());
            var encoded = new byte[ModifiedUtf8.GetByteCount(text.ToString())];
            Assert.Equal(expected.Length, encoded.Length);
            Assert.Equal(expected.Length, ModifiedUtf8.Encode(text.ToString(), encoded));
            Assert.Equal(expected, encoded);
            Assert.True(ModifiedUtf8.TryDecode(encoded, out var back, out _));
            Assert.Equal(text.ToString(), back);

            // The same bytes with a few changed: read as readUTF reads them, or refused where it refuses.
            for (var changes = random.Next(1, 4); changes > 0 && encoded.Length > 0; changes--)
            {
                encoded[random.Next(encoded.Length)] = (byte)random.Next(256);
            }

            var ok = ModifiedUtf8.TryDecode(encoded, out var read, out var errorIndex);
            var (referenceOk, referenceText, referenceIndex) = ReferenceReadUtf(encoded);
            Assert.Equal((referenceOk, referenceText, referenceIndex), (ok, ok ? read : string.Empty, ok ? -1 : errorIndex));
        }
    }

    // Java's DataInput.readUTF, unit by unit: one byte below 0x80, 110xxxxx 10xxxxxx, 1110xxxx 10xxxxxx 10xxxxxx, the
    // bits taken as they are (overlong forms and surrogates included); anything else refused at its first byte.
    private static (bool Ok, string Text, int ErrorIndex) ReferenceReadUtf(byte[] bytes)
    {
        var text = new System.Text.StringBuilder();
        for (var i = 0; i < bytes.Length;)
        {
            int b = bytes[i];
            if (b < 0x80)
            {
                text.Append((char)b);
                i++;
            }
            else if (b >> 5 == 0b110 && i + 1 < bytes.Length && bytes[i + 1] >> 6 == 0b10)
            {
                text.Append((char)(((b & 0x1F) << 6) | (bytes[i + 1] & 0x3F)));
                i += 2;
            }
            else if (b >> 4 == 0b1110 && i + 2 < bytes.Length && bytes[i + 1] >> 6 == 0b10 && bytes[i + 2] >> 6 == 0b10)
            {
                text.Append((char)(((b & 0x0F) << 12) | ((bytes[i + 1] & 0x3F) << 6) | (bytes[i + 2] & 0x3F)));
                i += 3;
            }
            else
            {
                return (false, string.Empty, i);
            }
        }

        return (true, text.ToString(), -1);
    }

    // Modified UTF-8 char by char, as Java's writeUTF does: U+0000 in two bytes, every UTF-16 unit (a surrogate too) on
    // its own.
    private static byte[] ReferenceModifiedUtf8(string text)
    {
        var bytes = new List<byte>();
        foreach (var c in text)
        {
            if (c is >= '\u0001' and <= '\u007F')
            {
                bytes.Add((byte)c);
            }
            else if (c <= '\u07FF')
            {
                bytes.AddRange([(byte)(0xC0 | (c >> 6)), (byte)(0x80 | (c & 0x3F))]);
            }
            else
            {
                bytes.AddRange([(byte)(0xE0 | (c >> 12)), (byte)(0x80 | ((c >> 6) & 0x3F)), (byte)(0x80 | (c & 0x3F))]);
            }
        }

        return [.. bytes];
    }

    [Fact]
    public void ModifiedUtf8_StringsOver65535Bytes_AreRefusedOnWrite()
    {
        var document = new NbtDocument("", new NbtString(new string('\u0800', 21846)));
        Assert.Throws<ArgumentException>(() => document.ToArray());
        var justFits = new NbtDocument("", new NbtString(new string('\u0800', 21845)));
        Assert.Equal(NbtTagType.String, NbtDocument.Read(justFits.ToArray()).Root.Type);
    }

    [Fact]
    public void BedrockLevelDat_KeepsItsHeader()
    {
        var body = NbtSamples.HelloWorld().ToArray(new NbtWriterOptions { Format = NbtFormat.Bedrock });
        byte[] levelDat = [10, 0, 0, 0, (byte)body.Length, 0, 0, 0, .. body];
        var file = NbtFile.Read(levelDat);
        Assert.Equal(NbtFormat.Bedrock, file.Format);
        Assert.Equal(10, file.LevelDatVersion);
        Assert.Equal(levelDat, file.ToArray());
    }

    [Fact]
    public void ReusedBufferWriter_SeesNoAllocationPerSerialization()
    {
        var document = NbtSamples.BigTest();
        var buffer = new ArrayBufferWriter<byte>(4096);
        document.Write(buffer);
        buffer.ResetWrittenCount();
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 100; i++)
        {
            buffer.ResetWrittenCount();
            document.Write(buffer);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void HeterogeneousLists_AreWrappedOnWriteAndUnwrappedOnRequest()
    {
        var mixed = NbtList.WithMixedTypes();
        mixed.Add(new NbtInt(1));
        mixed.Add(new NbtString("two"));
        mixed.Add(new NbtCompound { { "x", new NbtByte(3) } });
        var bytes = new NbtDocument("", new NbtCompound { { "l", mixed } }).ToArray();
        var plain = (NbtCompound)NbtDocument.Read(bytes).Root;
        Assert.Equal(NbtTagType.Compound, plain.Get<NbtList>("l").ElementType);
        Assert.Equal(new NbtInt(1), ((NbtCompound)plain.Get<NbtList>("l")[0])[""]);

        var unwrapped = (NbtCompound)NbtDocument.Read(bytes, new NbtReaderOptions { UnwrapHeterogeneousLists = true }).Root;
        Assert.Equal([NbtTagType.Int, NbtTagType.String, NbtTagType.Compound], unwrapped.Get<NbtList>("l").Select(t => t.Type));
    }
}

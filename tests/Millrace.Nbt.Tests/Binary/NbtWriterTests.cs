using System.Buffers;
using System.Buffers.Binary;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Binary;

public class NbtWriterTests
{
    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.JavaNetwork)]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void NumberArrays_LongerThanOneRun_SameBytesAsElementByElementAndReadBack(NbtFormat format)
    {
        // 10,000 ints and 5,000 longs span several 16 KiB runs, with values of every width and sign.
        int[] ints = [.. Enumerable.Range(-5_000, 10_000).Select(i => i * 214_013)];
        long[] longs = [.. Enumerable.Range(-2_500, 5_000).Select(i => i * 6_364_136_223_846_793_005L)];
        var output = new ArrayBufferWriter<byte>();
        var writer = new NbtWriter(output, format);
        writer.WriteStartCompound(string.Empty);
        writer.WriteIntArray("ints", ints);
        writer.WriteLongArray("longs", longs);
        writer.WriteEndCompound();
        writer.Flush();

        var bytes = output.WrittenSpan;
        var intsAt = bytes.IndexOf("ints"u8) + 4;
        Assert.Equal(Expected(format, ints.Select(v => (long)v), 4).ToArray(), bytes.Slice(intsAt, Expected(format, ints.Select(v => (long)v), 4).Count).ToArray());
        var tree = NbtFile.Read(bytes.ToArray(), format).Document.Root;
        var root = Assert.IsType<NbtCompound>(tree);
        Assert.Equal(ints, Assert.IsType<NbtIntArray>(root["ints"]).Value);
        Assert.Equal(longs, Assert.IsType<NbtLongArray>(root["longs"]).Value);
    }

    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.Bedrock)]
    public void ShortStrings_EveryLengthAndPlaceOfAWideChar_SameBytesAsTheEncoders(NbtFormat format)
    {
        // Short ASCII names and values are narrowed blocks at a time (8 chars, 4 chars, then one by one, the last block
        // overlapping): a char that is not one byte (U+0000 is two in Modified UTF-8) at any place of any length must
        // send the string to the encoders. U+0001 and U+007F are the one-byte ends.
        char[] chars = ['\u0001', '\u007F', '\0', '\u0080', '\u00FF', '\u0100', '\u4E2D'];
        for (var length = 0; length <= 40; length++)
        {
            for (var place = -1; place < length; place++)
            {
                foreach (var c in place < 0 ? ['a'] : chars)
                {
                    var text = string.Create(length, (place, c), static (span, state) =>
                    {
                        for (var i = 0; i < span.Length; i++)
                        {
                            span[i] = i == state.place ? state.c : (char)('a' + (i % 26));
                        }
                    });
                    var output = new ArrayBufferWriter<byte>();
                    new NbtWriter(output, format).WriteDocument(string.Empty, new NbtCompound { [text] = new NbtString(text) });
                    byte[] expected = [10, 0, 0, 8, .. Encoded(format, text), .. Encoded(format, text), 0];
                    Assert.True(expected.AsSpan().SequenceEqual(output.WrittenSpan), $"length {length}, U+{(int)c:X4} at {place}");
                }
            }
        }
    }

    // A flavour the enum does not name wrote big-endian numbers with UTF-8 strings, a mix no reader reads: refused, as
    // the options refuse it, by the writer and by the typed serializer that makes one.
    [Fact]
    public void UndefinedFlavour_IsRefusedWhenTheWriterIsMade()
    {
        var output = new ArrayBufferWriter<byte>();
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => new NbtWriter(output, (NbtFormat)42));
        Assert.Equal("format", error.ParamName);
        Assert.Throws<ArgumentOutOfRangeException>(() => Millrace.Nbt.Serialization.NbtSerializer.Serialize(new Millrace.Nbt.Tests.Serialization.Enchantment(), output, format: (NbtFormat)(-1)));
        Assert.Equal(0, output.WrittenCount);

        // Every flavour the enum names is taken (the check is a range: a flavour added past its end must widen it).
        Assert.All(Enum.GetValues<NbtFormat>(), format => new NbtWriter(output, format).Flush());
    }

    // The stack is checked every few levels (StackRoom), not at every one: a tree far deeper than a small thread's stack
    // must still be refused by each of the four walks, never overflow it (which would end the process).
    [Fact]
    public void NestingDeeperThanTheThreadsStack_IsRefusedByEveryWalk_NeverOverflowsIt()
    {
        const int Levels = 100_000;
        NbtTag tree = new NbtByte(1);
        for (var i = 0; i < Levels; i++)
        {
            tree = i % 2 == 0 ? new NbtList { tree } : new NbtCompound { ["a"] = tree };
        }

        // Lists of one list, 100,000 deep, then an empty list: what a reader with a raised limit is asked to read.
        byte[] deep = [9, 0, 0, .. Enumerable.Range(0, Levels).SelectMany(_ => new byte[] { 9, 0, 0, 0, 1 }), 0, 0, 0, 0, 0];
        var raised = new NbtReaderOptions { MaxDepth = Levels * 2 };
        var snbt = new string('[', Levels) + new string(']', Levels);

        var errors = OnASmallStack(
            () => new NbtWriter(new ArrayBufferWriter<byte>()).WriteDocument(string.Empty, tree),
            () => tree.ToString(),
            () => NbtDocument.Read(deep, raised),
            () => Millrace.Nbt.Snbt.SnbtParser.Parse(snbt, raised));

        Assert.IsType<ArgumentException>(errors[0]);
        Assert.IsType<ArgumentException>(errors[1]);
        Assert.Equal(NbtErrorCodes.Depth, Assert.IsType<NbtFormatException>(errors[2]).Error.Code);
        Assert.IsType<NbtFormatException>(errors[3]);
        Assert.All(errors, error => Assert.Contains("stack", error!.Message, StringComparison.Ordinal));
    }

    // Runs each action on a thread of 1 MiB of stack and returns what each threw.
    private static Exception?[] OnASmallStack(params Action[] actions)
    {
        var errors = new Exception?[actions.Length];
        var thread = new Thread(
            () =>
            {
                for (var i = 0; i < actions.Length; i++)
                {
                    try
                    {
                        actions[i]();
                    }
                    catch (Exception exception)
                    {
                        errors[i] = exception;
                    }
                }
            },
            maxStackSize: 1024 * 1024);
        thread.Start();
        thread.Join();
        return errors;
    }

    // A string as the flavour's encoder writes it, behind its 2-byte length.
    private static byte[] Encoded(NbtFormat format, string text)
    {
        var little = format == NbtFormat.Bedrock;
        var body = little ? System.Text.Encoding.UTF8.GetBytes(text) : new byte[ModifiedUtf8.GetByteCount(text)];
        if (!little)
        {
            ModifiedUtf8.Encode(text, body);
        }

        var length = new byte[2];
        if (little)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(length, (ushort)body.Length);
        }
        else
        {
            BinaryPrimitives.WriteUInt16BigEndian(length, (ushort)body.Length);
        }

        return [.. length, .. body];
    }

    // The array's length and elements as the flavour writes one number at a time.
    private static List<byte> Expected(NbtFormat format, IEnumerable<long> values, int width)
    {
        var little = format is NbtFormat.Bedrock or NbtFormat.BedrockNetwork;
        var list = new List<byte>();
        var all = values.ToList();
        void Fixed(long value, int size)
        {
            Span<byte> buffer = stackalloc byte[8];
            if (little)
            {
                BinaryPrimitives.WriteInt64LittleEndian(buffer, value);
                list.AddRange(buffer[..size].ToArray());
            }
            else
            {
                BinaryPrimitives.WriteInt64BigEndian(buffer, value);
                list.AddRange(buffer[(8 - size)..].ToArray());
            }
        }

        void ZigZagVarint(long value)
        {
            Span<byte> buffer = stackalloc byte[10];
            list.AddRange(buffer[..Varint.Write(buffer, ZigZag.Encode(value))].ToArray());
        }

        foreach (var value in all.Prepend(all.Count))
        {
            if (format == NbtFormat.BedrockNetwork)
            {
                ZigZagVarint(value);
            }
            else
            {
                Fixed(value, width);
            }
        }

        return list;
    }
}

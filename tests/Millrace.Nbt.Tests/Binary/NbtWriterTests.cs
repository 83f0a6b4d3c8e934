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

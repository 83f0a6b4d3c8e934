using System.Buffers;

namespace Millrace.Core.Tests;

public class BufferWriterCursorTests
{
    [Fact]
    public void Constructor_NullOutput_Throws()
    {
        var exception = Assert.Throws<ArgumentNullException>(() => { _ = new BufferWriterCursor(null!); });
        Assert.Equal("output", exception.ParamName);
    }

    [Fact]
    public void Writes_AreHandedOnOnlyAtFlush()
    {
        var output = new CountingBufferWriter(chunk: 1024);
        var cursor = new BufferWriterCursor(output);
        cursor.WriteByte(1);
        cursor.WriteVarint(300);
        cursor.Write([7, 8, 9]);

        Assert.Equal(6, cursor.Buffered);
        Assert.Empty(output.Written);
        Assert.Equal(1, output.GetSpanCalls);

        cursor.Flush();

        Assert.Equal(0, cursor.Buffered);
        Assert.Equal(new byte[] { 1, 0xAC, 0x02, 7, 8, 9 }, output.Written);
    }

    [Fact]
    public void ManySmallWrites_AskForSpaceOnlyWhenTheSpanRunsOut()
    {
        var output = new CountingBufferWriter(chunk: 256);
        var cursor = new BufferWriterCursor(output);
        for (var i = 0; i < 1000; i++)
        {
            cursor.WriteByte((byte)i);
        }

        cursor.Flush();

        Assert.Equal(Enumerable.Range(0, 1000).Select(i => (byte)i), output.Written);
        Assert.InRange(output.GetSpanCalls, 4, 5);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(255)]
    [InlineData(256)]
    [InlineData(70_000)]
    [InlineData(300_000)]
    public void Write_AnyLength_KeepsBytesInOrderAndNeverAsksForAHugeSpan(int length)
    {
        var bytes = Enumerable.Range(0, length).Select(i => (byte)(i * 7)).ToArray();
        var output = new CountingBufferWriter(chunk: 300);
        var cursor = new BufferWriterCursor(output);
        cursor.WriteByte(42);
        cursor.Write(bytes);
        cursor.Flush();

        Assert.Equal(new byte[] { 42 }.Concat(bytes), output.Written);
        Assert.True(output.LargestHint <= 64 * 1024, $"asked for {output.LargestHint} bytes at once");
    }

    [Fact]
    public void GetSpanAndAdvance_WriteWhatWasAdvanced()
    {
        var output = new ArrayBufferWriter<byte>();
        var cursor = new BufferWriterCursor(output);
        var span = cursor.GetSpan(4);
        Assert.Equal(4, span.Length);
        span[0] = 5;
        span[1] = 6;
        cursor.Advance(2);
        cursor.Flush();

        Assert.Equal(new byte[] { 5, 6 }, output.WrittenSpan.ToArray());
    }

    [Fact]
    public void Advance_PastWhatTheBufferWriterGave_ThrowsAtFlushNeverWritesPastIt()
    {
        var output = new ArrayBufferWriter<byte>(16);
        Assert.Throws<InvalidOperationException>(() =>
        {
            var cursor = new BufferWriterCursor(output);
            cursor.GetSpan(1);
            cursor.Advance(1 << 20);
            cursor.Flush();
        });
    }

    [Fact]
    public void GetSpan_NegativeHint_Throws()
    {
        var output = new ArrayBufferWriter<byte>();
        var exception = Assert.Throws<ArgumentOutOfRangeException>(() =>
        {
            var cursor = new BufferWriterCursor(output);
            cursor.GetSpan(-1);
        });
        Assert.Equal("sizeHint", exception.ParamName);
    }

    [Fact]
    public void GetSpan_BufferWriterGivesLessThanAsked_ThrowsInsteadOfWritingPastIt()
    {
        var output = new CountingBufferWriter(chunk: 8, honourHint: false);
        Assert.Throws<InvalidOperationException>(() =>
        {
            var cursor = new BufferWriterCursor(output);
            cursor.GetSpan(100);
        });
    }

    [Fact]
    public void Flush_Twice_HandsOnNothingMore()
    {
        var output = new CountingBufferWriter(chunk: 64);
        var cursor = new BufferWriterCursor(output);
        cursor.WriteByte(1);
        cursor.Flush();
        cursor.Flush();

        Assert.Equal(new byte[] { 1 }, output.Written);
        Assert.Equal(1, output.AdvanceCalls);
    }

    [Fact]
    public void LengthPrefix_ShortValue_TakesTheReservedByte()
    {
        var output = new CountingBufferWriter(chunk: 1024);
        var cursor = new BufferWriterCursor(output);
        var prefix = cursor.BeginLengthPrefix();
        cursor.Write([1, 2, 3]);
        cursor.EndLengthPrefix(prefix);
        cursor.Flush();

        Assert.Equal(new byte[] { 3, 1, 2, 3 }, output.Written);
    }

    [Theory]
    [InlineData(127)]
    [InlineData(128)]
    [InlineData(16_384)]
    [InlineData(300_000)]
    public void LengthPrefix_AnyLength_IsTheMinimalVarintBeforeTheValue(int length)
    {
        var bytes = Enumerable.Range(0, length).Select(i => (byte)(i * 13)).ToArray();
        var output = new CountingBufferWriter(chunk: 64, honourHint: true);
        var cursor = new BufferWriterCursor(output);
        cursor.WriteByte(9);
        var prefix = cursor.BeginLengthPrefix();
        cursor.Write(bytes);
        cursor.EndLengthPrefix(prefix);
        cursor.Flush();

        var expected = new byte[Varint.GetByteCount((ulong)length)];
        Varint.Write(expected, (ulong)length);
        Assert.Equal(new byte[] { 9 }.Concat(expected).Concat(bytes), output.Written);
    }

    [Fact]
    public void LengthPrefix_RandomNesting_GivesWhatSizingFirstGives()
    {
        // Values nested at random, written once through the cursor over tiny spans, against the same values encoded by
        // measuring each value first: the bytes must be the same whatever the nesting and wherever the spans end.
        var random = new Random(16);
        for (var run = 0; run < 300; run++)
        {
            var value = RandomValue(random, depth: 0);
            var output = new CountingBufferWriter(chunk: random.Next(1, 40));
            var cursor = new BufferWriterCursor(output);
            WriteOnce(ref cursor, value);
            cursor.Flush();

            Assert.Equal(SizedFirst(value), output.Written);
        }
    }

    [Fact]
    public void Flush_WithAnOpenLengthPrefix_Throws()
    {
        var cursor = new BufferWriterCursor(new CountingBufferWriter(chunk: 64));
        cursor.BeginLengthPrefix();
        cursor.WriteByte(1);
        try
        {
            cursor.Flush();
            Assert.Fail("Flush did not throw.");
        }
        catch (InvalidOperationException exception)
        {
            Assert.Contains("length prefix", exception.Message, StringComparison.Ordinal);
        }
    }

    /// <summary>A value: raw bytes, or a length-prefixed run of values.</summary>
    private sealed record NestedValue(byte[]? Bytes, List<NestedValue>? Children);

    private static NestedValue RandomValue(Random random, int depth)
    {
        if (depth > 4 || random.Next(3) == 0)
        {
            var bytes = new byte[random.Next(4) == 0 ? random.Next(100, 400) : random.Next(0, 20)];
            random.NextBytes(bytes);
            return new NestedValue(bytes, null);
        }

        return new NestedValue(null, [.. Enumerable.Range(0, random.Next(0, 6)).Select(_ => RandomValue(random, depth + 1))]);
    }

    private static void WriteOnce(ref BufferWriterCursor cursor, NestedValue value)
    {
        if (value.Bytes is { } bytes)
        {
            cursor.Write(bytes);
            return;
        }

        var prefix = cursor.BeginLengthPrefix();
        foreach (var child in value.Children!)
        {
            WriteOnce(ref cursor, child);
        }

        cursor.EndLengthPrefix(prefix);
    }

    private static byte[] SizedFirst(NestedValue value)
    {
        if (value.Bytes is { } bytes)
        {
            return bytes;
        }

        var content = value.Children!.SelectMany(SizedFirst).ToArray();
        var length = new byte[Varint.GetByteCount((ulong)content.Length)];
        Varint.Write(length, (ulong)content.Length);
        return [.. length, .. content];
    }

    /// <summary>A buffer writer that counts requests and gives spans of a fixed size, to see how the cursor asks.</summary>
    private sealed class CountingBufferWriter(int chunk, bool honourHint = true) : IBufferWriter<byte>
    {
        private byte[] _current = [];

        public List<byte> Written { get; } = [];

        public int GetSpanCalls { get; private set; }

        public int AdvanceCalls { get; private set; }

        public int LargestHint { get; private set; }

        public void Advance(int count)
        {
            AdvanceCalls++;
            Written.AddRange(_current.AsSpan(0, count));
        }

        public Memory<byte> GetMemory(int sizeHint = 0) => throw new NotSupportedException();

        public Span<byte> GetSpan(int sizeHint = 0)
        {
            GetSpanCalls++;
            LargestHint = Math.Max(LargestHint, sizeHint);
            _current = new byte[honourHint ? Math.Max(sizeHint, chunk) : chunk];
            return _current;
        }
    }
}

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

using System.Buffers;

namespace Millrace.Core.Tests;

public class PooledBufferWriterTests
{
    [Fact]
    public void Write_GrowsAndKeepsBytesInOrder()
    {
        using var writer = new PooledBufferWriter(initialCapacity: 4);
        var expected = Enumerable.Range(0, 10_000).Select(i => (byte)i).ToArray();
        foreach (var chunk in expected.Chunk(7))
        {
            chunk.CopyTo(writer.GetSpan(chunk.Length));
            writer.Advance(chunk.Length);
        }

        Assert.Equal(expected, writer.WrittenSpan.ToArray());
        Assert.Equal(expected, writer.ToArray());
        Assert.Equal(10_000, writer.WrittenCount);
        Assert.True(writer.Capacity >= 10_000);
    }

    [Fact]
    public void Clear_KeepsCapacityAndResetsCount()
    {
        using var writer = new PooledBufferWriter(64);
        writer.GetSpan(10)[..10].Fill(1);
        writer.Advance(10);
        var capacity = writer.Capacity;
        writer.Clear();
        Assert.Equal(0, writer.WrittenCount);
        Assert.Equal(capacity, writer.Capacity);
        Assert.Equal(capacity, writer.FreeCapacity);
    }

    [Fact]
    public void Advance_PastFreeSpaceThrows()
    {
        using var writer = new PooledBufferWriter(16);
        Assert.Throws<InvalidOperationException>(() => writer.Advance(writer.Capacity + 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => writer.Advance(-1));
    }

    [Fact]
    public void Dispose_ReturnsEveryRentedArrayToThePool()
    {
        var pool = new CountingPool();
        var writer = new PooledBufferWriter(8, pool, clearOnReturn: true);
        writer.GetSpan(100);
        writer.Advance(100);
        writer.GetSpan(1000);
        writer.Dispose();
        writer.Dispose();
        Assert.Equal(pool.Rented, pool.Returned);
        Assert.True(pool.Rented >= 2);
        Assert.True(pool.AllReturnedCleared);
        Assert.Throws<ObjectDisposedException>(() => writer.GetSpan(1));
    }

    [Fact]
    public void Constructor_RejectsNonPositiveCapacity() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => new PooledBufferWriter(0));

    private sealed class CountingPool : ArrayPool<byte>
    {
        public int Rented { get; private set; }

        public int Returned { get; private set; }

        public bool AllReturnedCleared { get; private set; } = true;

        public override byte[] Rent(int minimumLength)
        {
            Rented++;
            return new byte[minimumLength];
        }

        public override void Return(byte[] array, bool clearArray = false)
        {
            Returned++;
            AllReturnedCleared &= clearArray;
        }
    }
}

public class ReadBufferTests
{
    [Fact]
    public void Compact_MovesUnconsumedBytesToTheFront()
    {
        byte[] buffer = [1, 2, 3, 4, 5, 6];
        int start = 4, end = 6;
        Assert.Equal(4, ReadBuffer.Compact(buffer, ref start, ref end));
        Assert.Equal((0, 2), (start, end));
        Assert.Equal(new byte[] { 5, 6 }, buffer[..2]);
    }

    [Fact]
    public void Compact_NothingConsumed_DropsNothing()
    {
        byte[] buffer = [1, 2, 3];
        int start = 0, end = 2;
        Assert.Equal(0, ReadBuffer.Compact(buffer, ref start, ref end));
        Assert.Equal((0, 2), (start, end));
    }

    [Fact]
    public void Compact_RejectsInconsistentIndices()
    {
        int start = 2, end = 1;
        Assert.Throws<ArgumentOutOfRangeException>(() => ReadBuffer.Compact(new byte[4], ref start, ref end));
    }
}

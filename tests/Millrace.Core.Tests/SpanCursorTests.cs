using System.Buffers;

namespace Millrace.Core.Tests;

public class SpanCursorTests
{
    private static readonly byte[] Bytes = [10, 20, 30, 40, 50];

    // 300 as a varint is AC 02; ulong.MaxValue takes the full ten bytes.
    private static readonly byte[] TwoByteVarint = [0xAC, 0x02];
    private static readonly byte[] TenByteVarint = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01];

    [Fact]
    public void Constructor_Defaults_StartsAtZeroWithOffsetZero()
    {
        var cursor = new SpanCursor(Bytes);

        Assert.Equal(0, cursor.Position);
        Assert.Equal(0, cursor.Offset);
        Assert.Equal(5, cursor.Remaining);
        Assert.False(cursor.End);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(5)]
    public void Constructor_PositionInside_OffsetAddsBase(int position)
    {
        var cursor = new SpanCursor(Bytes, baseOffset: 100, position: position);

        Assert.Equal(position, cursor.Position);
        Assert.Equal(100 + position, cursor.Offset);
        Assert.Equal(5 - position, cursor.Remaining);
        Assert.Equal(position == 5, cursor.End);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(6)]
    [InlineData(int.MinValue)]
    [InlineData(int.MaxValue)]
    public void Constructor_PositionOutside_Throws(int position)
    {
        var exception = Assert.Throws<ArgumentOutOfRangeException>(() => { _ = new SpanCursor(Bytes, 0, position); });
        Assert.Equal("position", exception.ParamName);
    }

    [Fact]
    public void Default_IsAnEmptyCursorAtTheEnd()
    {
        var cursor = default(SpanCursor);

        Assert.True(cursor.End);
        Assert.Equal(0, cursor.Remaining);
        Assert.False(cursor.CanTake(1));
        Assert.Equal(OperationStatus.NeedMoreData, cursor.TryReadVarint(out ulong _));
    }

    [Fact]
    public void ReadByte_EveryByteThenEnd_CanTakeRefuses()
    {
        var cursor = new SpanCursor(Bytes, baseOffset: 7);
        foreach (var expected in Bytes)
        {
            Assert.True(cursor.CanTake(1));
            Assert.Equal(expected, cursor.ReadByte());
        }

        Assert.True(cursor.End);
        Assert.False(cursor.CanTake(1));
        Assert.Equal(5, cursor.Position);
        Assert.Equal(12, cursor.Offset);
    }

    [Fact]
    public void ReadByte_WithoutCanTakeAtTheEnd_ThrowsRatherThanReadingPast()
    {
        Assert.Throws<IndexOutOfRangeException>(() =>
        {
            var cursor = new SpanCursor(Bytes, 0, Bytes.Length);
            cursor.ReadByte();
        });
    }

    [Fact]
    public void CanTakeAndTake_EveryCountFromEveryPosition_TakeExactlyWhenTheBytesRemain()
    {
        for (var position = 0; position <= Bytes.Length; position++)
        {
            for (var count = 0; count <= Bytes.Length + 1; count++)
            {
                var cursor = new SpanCursor(Bytes, 0, position);
                var fits = count <= Bytes.Length - position;

                Assert.Equal(fits, cursor.CanTake(count));
                Assert.Equal(position, cursor.Position);
                if (fits)
                {
                    Assert.Equal(Bytes.AsSpan(position, count).ToArray(), cursor.Take(count).ToArray());
                    Assert.Equal(position + count, cursor.Position);
                }
            }
        }
    }

    [Fact]
    public void Advance_EveryCountFromEveryPosition_MovesAsTakeDoes()
    {
        for (var position = 0; position <= Bytes.Length; position++)
        {
            for (var count = 0; count <= Bytes.Length - position; count++)
            {
                var cursor = new SpanCursor(Bytes, 0, position);
                cursor.Advance(count);
                Assert.Equal(position + count, cursor.Position);
            }
        }
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(int.MinValue)]
    [InlineData(int.MaxValue)]
    public void CanTake_NegativeOrHugeCount_Refused(int count)
    {
        var cursor = new SpanCursor(Bytes, 0, 2);

        Assert.False(cursor.CanTake(count));
        Assert.Equal(2, cursor.Position);
    }

    [Theory]
    [InlineData(false, -1)]
    [InlineData(false, 4)]
    [InlineData(true, -1)]
    [InlineData(true, 4)]
    [InlineData(true, int.MaxValue)]
    public void TakeOrAdvance_WithoutCanTake_ThrowsWithoutMoving(bool advance, int count)
    {
        var position = -1;
        Assert.Throws<ArgumentOutOfRangeException>(() =>
        {
            var cursor = new SpanCursor(Bytes, 0, 2);
            try
            {
                if (advance)
                {
                    cursor.Advance(count);
                }
                else
                {
                    cursor.Take(count);
                }
            }
            finally
            {
                position = cursor.Position;
            }
        });
        Assert.Equal(2, position);
    }

    [Theory]
    [InlineData(new byte[] { 0x00 }, 0UL)]
    [InlineData(new byte[] { 0x7F }, 127UL)]
    [InlineData(new byte[] { 0xAC, 0x02 }, 300UL)]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x0F }, uint.MaxValue)]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 }, ulong.MaxValue)]
    public void TryReadVarint64_Golden_ReadsAndMovesPastIt(byte[] encoded, ulong expected)
    {
        byte[] data = [0x55, .. encoded, 0x66];
        var cursor = new SpanCursor(data, baseOffset: 10, position: 1);

        Assert.Equal(OperationStatus.Done, cursor.TryReadVarint(out ulong value));
        Assert.Equal(expected, value);
        Assert.Equal(1 + encoded.Length, cursor.Position);
        Assert.Equal(0x66, cursor.ReadByte());
    }

    [Fact]
    public void TryReadVarint64_EveryTruncation_NeedsMoreDataWithoutMoving()
    {
        for (var length = 0; length < TenByteVarint.Length; length++)
        {
            var cursor = new SpanCursor(TenByteVarint.AsSpan(0, length));

            Assert.Equal(OperationStatus.NeedMoreData, cursor.TryReadVarint(out ulong value));
            Assert.Equal(0UL, value);
            Assert.Equal(0, cursor.Position);
        }
    }

    [Theory]
    [InlineData(new byte[] { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 })]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02 })]
    public void TryReadVarint64_OverlongOrOverflowing_InvalidWithoutMoving(byte[] encoded)
    {
        var cursor = new SpanCursor(encoded);

        Assert.Equal(OperationStatus.InvalidData, cursor.TryReadVarint(out ulong value));
        Assert.Equal(0UL, value);
        Assert.Equal(0, cursor.Position);
    }

    [Theory]
    [InlineData(new byte[] { 0x05 }, 5U)]
    [InlineData(new byte[] { 0xAC, 0x02 }, 300U)]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x0F }, uint.MaxValue)]
    public void TryReadVarint32_Golden_ReadsAndMovesPastIt(byte[] encoded, uint expected)
    {
        var cursor = new SpanCursor(encoded);

        Assert.Equal(OperationStatus.Done, cursor.TryReadVarint(out uint value));
        Assert.Equal(expected, value);
        Assert.True(cursor.End);
    }

    [Fact]
    public void TryReadVarint32_EveryTruncation_NeedsMoreDataWithoutMoving()
    {
        byte[] encoded = [0xFF, 0xFF, 0xFF, 0xFF, 0x0F];
        for (var length = 0; length < encoded.Length; length++)
        {
            var cursor = new SpanCursor(encoded.AsSpan(0, length));

            Assert.Equal(OperationStatus.NeedMoreData, cursor.TryReadVarint(out uint value));
            Assert.Equal(0U, value);
            Assert.Equal(0, cursor.Position);
        }
    }

    [Theory]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x1F })]
    [InlineData(new byte[] { 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 })]
    public void TryReadVarint32_OverlongOrOverflowing_InvalidWithoutMoving(byte[] encoded)
    {
        var cursor = new SpanCursor(encoded);

        Assert.Equal(OperationStatus.InvalidData, cursor.TryReadVarint(out uint value));
        Assert.Equal(0U, value);
        Assert.Equal(0, cursor.Position);
    }

    [Fact]
    public void TryReadVarint_RandomValues_AgreeWithVarint() => PropertyCheck.Run(Prop.ForAll<ulong>(value =>
    {
        var buffer = new byte[Varint.MaxLength64 + 1];
        var written = Varint.Write(buffer, value);
        var cursor = new SpanCursor(buffer);
        return cursor.TryReadVarint(out ulong read) == OperationStatus.Done && read == value && cursor.Position == written;
    }), maxTest: 1000);

    [Theory]
    [InlineData(0UL, 0)]
    [InlineData(1UL, 4)]
    [InlineData(2UL, 2)]
    [InlineData(5UL, 1)]
    [InlineData(1_000_000UL, 0)]
    public void CheckCount_FitsTheRemainingBytesAtTheMinimumSize_Done(ulong count, int minimumElementSize)
    {
        var cursor = new SpanCursor(Bytes);

        Assert.Equal(SpanCursorStatus.Done, cursor.CheckCount(count, int.MaxValue, minimumElementSize));
    }

    [Theory]
    [InlineData(6UL, 1)]
    [InlineData(2UL, 3)]
    [InlineData(1UL, 6)]
    [InlineData(3UL, 2)]
    [InlineData((ulong)int.MaxValue, int.MaxValue)]
    public void CheckCount_OneElementMoreThanTheBytesHold_BeyondInput(ulong count, int minimumElementSize)
    {
        var cursor = new SpanCursor(Bytes);

        Assert.Equal(SpanCursorStatus.BeyondInput, cursor.CheckCount(count, int.MaxValue, minimumElementSize));
    }

    [Fact]
    public void CheckCount_AfterReading_ChecksAgainstWhatRemains()
    {
        var cursor = new SpanCursor(Bytes, 0, 3);

        Assert.Equal(SpanCursorStatus.Done, cursor.CheckCount(2UL, 10, 1));
        Assert.Equal(SpanCursorStatus.BeyondInput, cursor.CheckCount(3UL, 10, 1));
    }

    [Theory]
    [InlineData(4UL, 3)]
    [InlineData(1UL, 0)]
    [InlineData((ulong)int.MaxValue + 1, int.MaxValue)]
    [InlineData(ulong.MaxValue, int.MaxValue)]
    public void CheckCount_OverTheLimit_OverLimitBeforeTheInputIsConsidered(ulong count, int maxCount)
    {
        var cursor = new SpanCursor(Bytes);

        // Minimum size 0: only the limit can refuse, and a huge count must not overflow into a pass.
        Assert.Equal(SpanCursorStatus.OverLimit, cursor.CheckCount(count, maxCount, 0));
        Assert.Equal(SpanCursorStatus.OverLimit, cursor.CheckCount(count, maxCount, 1_000));
    }

    [Fact]
    public void CheckCount_AtTheLimit_Done()
    {
        var cursor = new SpanCursor(Bytes);

        Assert.Equal(SpanCursorStatus.Done, cursor.CheckCount(3UL, 3, 1));
        Assert.Equal(SpanCursorStatus.Done, cursor.CheckCount(0UL, 0, 1));
    }

    [Theory]
    [InlineData(-1L)]
    [InlineData((long)int.MinValue)]
    [InlineData(long.MinValue)]
    public void CheckCountSigned_Negative_Negative(long count)
    {
        var cursor = new SpanCursor(Bytes);

        Assert.Equal(SpanCursorStatus.Negative, cursor.CheckCount(count, int.MaxValue, 0));
    }

    [Theory]
    [InlineData(5L, int.MaxValue, 1, SpanCursorStatus.Done)]
    [InlineData(6L, int.MaxValue, 1, SpanCursorStatus.BeyondInput)]
    [InlineData(4L, 3, 1, SpanCursorStatus.OverLimit)]
    [InlineData(long.MaxValue, int.MaxValue, 0, SpanCursorStatus.OverLimit)]
    public void CheckCountSigned_NotNegative_SameAsUnsigned(long count, int maxCount, int minimumElementSize, SpanCursorStatus expected)
    {
        var cursor = new SpanCursor(Bytes);

        Assert.Equal(expected, cursor.CheckCount(count, maxCount, minimumElementSize));
        Assert.Equal(expected, cursor.CheckCount((ulong)count, maxCount, minimumElementSize));
    }

    [Theory]
    [InlineData(-1, 1, "maxCount")]
    [InlineData(1, -1, "minimumElementSize")]
    public void CheckCount_NegativeArguments_Throw(int maxCount, int minimumElementSize, string paramName)
    {
        Assert.Equal(paramName, Assert.Throws<ArgumentOutOfRangeException>(() => new SpanCursor(Bytes).CheckCount(1UL, maxCount, minimumElementSize)).ParamName);
        Assert.Equal(paramName, Assert.Throws<ArgumentOutOfRangeException>(() => new SpanCursor(Bytes).CheckCount(1L, maxCount, minimumElementSize)).ParamName);
        Assert.Equal(paramName, Assert.Throws<ArgumentOutOfRangeException>(() => new SpanCursor(Bytes).CountFits(1UL, maxCount, minimumElementSize)).ParamName);
    }

    [Theory]
    [InlineData(4UL, int.MaxValue, 1)]
    [InlineData(5UL, int.MaxValue, 1)]
    [InlineData(2UL, int.MaxValue, 2)]
    [InlineData(3UL, int.MaxValue, 2)]
    [InlineData(4UL, 3, 0)]
    [InlineData(3UL, 3, 0)]
    [InlineData(ulong.MaxValue, int.MaxValue, 1)]
    [InlineData(0UL, 0, 1_000)]
    public void CountFits_IsCheckCountDone(ulong count, int maxCount, int minimumElementSize)
    {
        // Four bytes remain after the one already read: the checks count only those.
        var cursor = new SpanCursor(Bytes, 0, 1);

        Assert.Equal(cursor.CheckCount(count, maxCount, minimumElementSize) == SpanCursorStatus.Done, cursor.CountFits(count, maxCount, minimumElementSize));
        Assert.Equal(1, cursor.Position);
    }

    [Fact]
    public void Since_AnEarlierOffset_ReturnsTheBytesReadSince()
    {
        var cursor = new SpanCursor(Bytes, baseOffset: 1_000);
        cursor.Take(1);
        var mark = cursor.Offset;
        cursor.Take(3);

        Assert.Equal(new byte[] { 20, 30, 40 }, cursor.Since(mark).ToArray());
        Assert.True(cursor.Since(cursor.Offset).IsEmpty);
    }

    [Theory]
    [InlineData(999)]
    [InlineData(1_003)]
    public void Since_AnOffsetOutsideWhatWasRead_Throws(int offset)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() =>
        {
            var cursor = new SpanCursor(Bytes, baseOffset: 1_000, position: 2);
            _ = cursor.Since(offset);
        });
    }
}

using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Binary;

public class MalformedInputTests
{
    [Fact]
    public void BigTest_TruncatedAtEveryOffset_RaisesNbtFormatExceptionOnly()
    {
        var bytes = NbtSamples.BigTest().ToArray();
        for (var length = 0; length < bytes.Length; length++)
        {
            var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(bytes.AsSpan(0, length)));
            Assert.InRange(error.ByteOffset, 0, length);
        }
    }

    [Fact]
    public void Errors_CarryTheTagPath()
    {
        var bytes = NbtSamples.BigTest().ToArray();
        // Corrupt the length of "Hampus" (the first string in nested compound test.ham) so it runs past the end.
        var hampus = bytes.AsSpan().IndexOf("Hampus"u8);
        bytes[hampus - 2] = 0x7F;
        var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(bytes));
        Assert.Equal("Level.nested compound test.ham.name", error.Path);
        Assert.Equal(hampus - 2, error.ByteOffset);
        Assert.Contains("path Level.nested compound test.ham.name", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void TenThousandLevelsOfNesting_IsADepthErrorNotAStackOverflow()
    {
        // A root compound holding a list of lists of lists…, each with one element.
        var bytes = new List<byte> { 10, 0, 0, 9, 0, 0 };
        for (var i = 0; i < 10_000; i++)
        {
            bytes.AddRange([9, 0, 0, 0, 1]);
        }

        var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(bytes.ToArray()));
        Assert.Contains("deeper than the limit of 512", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void HugeDeclaredLength_IsRefusedBeforeAllocating()
    {
        byte[] bytes = [7, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        var before = GC.GetAllocatedBytesForCurrentThread();
        var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(bytes));
        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 100_000);
        Assert.Equal(3, error.ByteOffset);
        Assert.Contains("2147483647", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new byte[] { 7, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF }, "Negative length")]
    [InlineData(new byte[] { 9, 0, 0, 0, 0, 0, 0, 2 }, "End tags")]
    [InlineData(new byte[] { 13, 0, 0 }, "Unknown tag type 13")]
    [InlineData(new byte[] { 0 }, "root tag is an End")]
    [InlineData(new byte[] { 1, 0, 0, 5, 6 }, "follow the root")]
    [InlineData(new byte[] { 8, 0, 0, 0, 2, 0xC0, 0x41 }, "Modified UTF-8")]
    public void MalformedInputs_SayWhy(byte[] bytes, string reason)
    {
        var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(bytes));
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ByteQuota_StopsTreesLargerThanAllowed()
    {
        var document = new NbtDocument("", new NbtByteArray(new byte[10_000]));
        var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(document.ToArray(), new NbtReaderOptions { MaxBytes = 5_000 }));
        Assert.Contains("quota", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RandomBytes_OnlyEverRaiseNbtFormatException()
    {
        var random = new Random(7);
        var seed = NbtSamples.BigTest().ToArray();
        foreach (var format in Enum.GetValues<NbtFormat>())
        {
            var options = new NbtReaderOptions { Format = format };
            for (var i = 0; i < 3_000; i++)
            {
                var bytes = (byte[])seed.Clone();
                for (var flips = random.Next(1, 8); flips > 0; flips--)
                {
                    bytes[random.Next(bytes.Length)] = (byte)random.Next(256);
                }

                try
                {
                    NbtDocument.Read(bytes.AsSpan(0, random.Next(bytes.Length + 1)), options);
                }
                catch (NbtFormatException)
                {
                }
            }
        }
    }
}

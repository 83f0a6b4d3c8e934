using System.Text;

namespace Millrace.Core.Tests;

public class NameCacheTests
{
    [Theory]
    [InlineData("a")]
    [InlineData("id")]
    [InlineData("Slot")]
    [InlineData("department")]
    [InlineData("exactly sixteen!")]
    [InlineData("thirty-two bytes, the most kept.")]
    public void Get_ShortAscii_GivesTheNameAndTheSameStringEachTime(string name)
    {
        var bytes = Encoding.ASCII.GetBytes(name);

        var first = NameCache.Get(bytes);
        var second = NameCache.Get(bytes.ToArray());

        // Kept on its second sighting in a row: from then on, one string.
        Assert.Equal(name, first);
        Assert.Equal(name, second);
        Assert.Same(second, NameCache.Get(bytes.ToArray()));
    }

    [Fact]
    public void Get_NameSeenOnce_IsNotKept()
    {
        var once = Encoding.ASCII.GetBytes("seen-once-7f3a");

        var first = NameCache.Get(once);

        Assert.NotSame(first, NameCache.Get(once));
    }

    [Theory]
    [InlineData(new byte[0])]
    [InlineData(new byte[] { (byte)'a', 0xC3, 0xA9 })]
    [InlineData(new byte[] { 0x80 })]
    public void Get_EmptyOrNotAscii_GivesNull(byte[] bytes) => Assert.Null(NameCache.Get(bytes));

    [Fact]
    public void Get_LongerThanMaxLength_GivesNull() =>
        Assert.Null(NameCache.Get(Encoding.ASCII.GetBytes(new string('x', NameCache.MaxLength + 1))));

    [Fact]
    public void Get_NamesThatShareSlotsOrWords_NeverGivesAnother()
    {
        // Names alike in their first and last bytes and length (long ones differ only in the middle), and many more names
        // than slots, so that entries replace each other: every answer must still spell its own bytes.
        var names = Enumerable.Range(0, 5_000).Select(i => $"name-{i:D5}-in-the-middle-{i % 7}").Concat(Enumerable.Range(0, 3_000).Select(i => $"k{i}")).ToArray();
        for (var round = 0; round < 2; round++)
        {
            foreach (var name in names)
            {
                Assert.Equal(name, NameCache.Get(Encoding.ASCII.GetBytes(name)));
            }
        }
    }
}

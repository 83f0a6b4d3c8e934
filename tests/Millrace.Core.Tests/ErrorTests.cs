namespace Millrace.Core.Tests;

public class ErrorTests
{
    [Fact]
    public void ToString_NoLocation_IsCodeAndMessage()
    {
        Assert.Equal("json.bind: The value is not a number.", new Error("json.bind", "The value is not a number.").ToString());
    }

    [Fact]
    public void ToString_EveryLocation_InTheDocumentedOrder()
    {
        var error = new Error("nbt.truncated", "The input ends early.") { ItemIndex = 3, ByteOffset = 120, Path = "Level.Sections[2]" };

        Assert.Equal("nbt.truncated: The input ends early. (item 3, byte offset 120, path Level.Sections[2])", error.ToString());
    }

    [Fact]
    public void ToString_SomeLocations_OnlyThoseAndNoEmptyPath()
    {
        Assert.Equal("c: m (byte offset 0)", new Error("c", "m") { ByteOffset = 0, Path = string.Empty }.ToString());
        Assert.Equal("c: m (item 0)", new Error("c", "m") { ItemIndex = 0 }.ToString());
        Assert.Equal("c: m (path $.a)", new Error("c", "m") { Path = "$.a" }.ToString());
    }

    [Fact]
    public void ToException_CarriesTheSameError()
    {
        var error = new Error("compact.truncated", "Short.") { ByteOffset = 9 };
        var exception = error.ToException();

        Assert.Same(error, exception.Error);
        Assert.Equal(error.ToString(), exception.Message);
    }

    [Fact]
    public void Equality_IsByValue()
    {
        Assert.Equal(new Error("a", "b") { ByteOffset = 1 }, new Error("a", "b") { ByteOffset = 1 });
        Assert.NotEqual(new Error("a", "b") { ByteOffset = 1 }, new Error("a", "b") { ByteOffset = 2 });
    }

    [Fact]
    public void MillraceException_Constructors_GiveAGenericCodeAndKeepTheCause()
    {
        var cause = new InvalidOperationException("inner");

        Assert.Equal("millrace.error", new MillraceException().Error.Code);
        Assert.Equal("boom", new MillraceException("boom").Error.Message);
        var wrapped = new MillraceException("boom", cause);
        Assert.Same(cause, wrapped.InnerException);
        Assert.Same(cause, wrapped.Error.Exception);
        Assert.Throws<ArgumentNullException>(() => new MillraceException((Error)null!));
    }
}

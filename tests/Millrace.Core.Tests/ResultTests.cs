namespace Millrace.Core.Tests;

public class ResultTests
{
    [Fact]
    public void Success_HoldsValue()
    {
        Result<int> result = 42;
        Assert.True(result.IsSuccess);
        Assert.False(result.IsFailure);
        Assert.Equal(42, result.Value);
        Assert.True(result.TryGetValue(out var value));
        Assert.Equal(42, value);
        Assert.False(result.TryGetError(out _));
        Assert.Throws<InvalidOperationException>(() => result.Error);
        Assert.Equal("Success(42)", result.ToString());
    }

    [Fact]
    public void Failure_ValueThrowsMillraceExceptionCarryingTheError()
    {
        var error = new Error("test.bad", "bad thing") { ItemIndex = 3, ByteOffset = 120, Path = "$.a" };
        Result<string> result = error;
        Assert.True(result.IsFailure);
        Assert.Same(error, result.Error);
        var thrown = Assert.Throws<MillraceException>(() => result.Value);
        Assert.Same(error, thrown.Error);
        Assert.Equal(120, thrown.Error.ByteOffset);
        Assert.Equal("$.a", thrown.Error.Path);
        Assert.Equal("test.bad: bad thing (item 3, byte offset 120, path $.a)", thrown.Message);
        Assert.Equal("fallback", result.GetValueOrDefault("fallback"));
    }

    [Fact]
    public void Default_IsFailureWithUninitializedError()
    {
        var result = default(Result<int>);
        Assert.True(result.IsFailure);
        Assert.Same(Error.Uninitialized, result.Error);
        Assert.True(result.TryGetError(out var error));
        Assert.Same(Error.Uninitialized, error);
    }

    [Fact]
    public void Map_TransformsSuccessAndPassesFailureThrough()
    {
        Assert.Equal(84, Result<int>.Success(42).Map(x => x * 2).Value);
        var error = new Error("e", "m");
        Assert.Same(error, Result<int>.Failure(error).Map(x => x * 2).Error);
    }

    [Fact]
    public void Equality_ComparesStateValueAndError()
    {
        Assert.Equal(Result<int>.Success(1), Result<int>.Success(1));
        Assert.NotEqual(Result<int>.Success(1), Result<int>.Success(2));
        var error = new Error("e", "m");
        Assert.True(Result<int>.Failure(error) == Result<int>.Failure(new Error("e", "m")));
        Assert.True(Result<int>.Success(0) != Result<int>.Failure(error));
    }

    [Fact]
    public void Failure_RejectsNullError() =>
        Assert.Throws<ArgumentNullException>(() => Result<int>.Failure(null!));

    [Fact]
    public void ErrorToString_OmitsMissingLocation() =>
        Assert.Equal("x.y: message", new Error("x.y", "message").ToString());
}

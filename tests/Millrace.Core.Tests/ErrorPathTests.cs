namespace Millrace.Core.Tests;

public class ErrorPathTests
{
    [Fact]
    public void New_IsEmptyAndFormatsAsNothing()
    {
        var path = new ErrorPath();

        Assert.True(path.IsEmpty);
        Assert.Equal(string.Empty, path.ToString());
    }

    [Fact]
    public void Prepend_InnermostFirst_FormatsOutermostFirstWithDotsAndBrackets()
    {
        var path = new ErrorPath();
        path.Prepend("BlockStates");
        path.Prepend(3);
        path.Prepend("Sections");
        path.Prepend("Level");

        Assert.False(path.IsEmpty);
        Assert.Equal("Level.Sections[3].BlockStates", path.ToString());
    }

    [Fact]
    public void Prepend_IndexFirstAndNestedIndices_NoLeadingOrDoubledDots()
    {
        var path = new ErrorPath();
        path.Prepend("name");
        path.Prepend(1);
        path.Prepend(0);

        Assert.Equal("[0][1].name", path.ToString());
    }

    [Theory]
    [InlineData("a.b", "metadata['a.b']")]
    [InlineData("", "metadata['']")]
    [InlineData("it's", @"metadata['it\'s']")]
    [InlineData(@"back\slash[0]", @"metadata['back\\slash[0]']")]
    [InlineData("[x]", "metadata['[x]']")]
    [InlineData("[0]", "metadata['[0]']")]
    [InlineData("a\nb", @"metadata['a\u000Ab']")]
    [InlineData("esc\u001b[31m", @"metadata['esc\u001B[31m']")]
    [InlineData("line\u2028sep", @"metadata['line\u2028sep']")]
    public void Prepend_NamesADotOrBracketWouldMakeAmbiguous_AreQuotedInBrackets(string name, string expected)
    {
        // As System.Text.Json writes such names: `metadata.a.b` could be a member b of a member a.
        var path = new ErrorPath();
        path.Prepend(name);
        path.Prepend("metadata");

        Assert.Equal(expected, path.ToString());
    }

    [Fact]
    public void Describe_WithAndWithoutPathAndScope()
    {
        var path = new ErrorPath();
        Assert.Equal("Bad tag. (byte offset 7)", ErrorPath.Describe("Bad tag.", 7, path));
        Assert.Equal("Bad tag. (byte offset 7 of the gzip-decompressed data)", ErrorPath.Describe("Bad tag.", 7, path, "of the gzip-decompressed data"));

        path.Prepend("Pos");
        Assert.Equal("Bad tag. (byte offset 7, path Pos)", ErrorPath.Describe("Bad tag.", 7, path));
        Assert.Throws<ArgumentNullException>(() => ErrorPath.Describe("x", 0, null!));
    }

    [Fact]
    public void LocatedFormatException_PathPrependedByFilters_ReachesTheErrorAndTheMessage()
    {
        static void Inner() => throw new SampleFormatException("sample.truncated", "The input ends early.", 42);

        static void Level(string segment, Action inner)
        {
            try
            {
                inner();
            }
            catch (SampleFormatException exception) when (exception.PrependPathAndPropagate(segment))
            {
                throw;
            }
        }

        static void Element(int index, Action inner)
        {
            try
            {
                inner();
            }
            catch (SampleFormatException exception) when (exception.PrependPathAndPropagate(index))
            {
                throw;
            }
        }

        var exception = Assert.Throws<SampleFormatException>(() => Level("Level", () => Element(2, () => Level("Name", Inner))));

        Assert.Equal("Level[2].Name", exception.Path);
        Assert.Equal("The input ends early. (byte offset 42, path Level[2].Name)", exception.Message);
        Assert.Equal(new Error("sample.truncated", "The input ends early.") { ByteOffset = 42, Path = "Level[2].Name" }, exception.Error);
        Assert.IsAssignableFrom<MillraceException>(exception);
    }

    [Fact]
    public void LocatedFormatException_OffsetScope_IsSaidInMessageAndError()
    {
        var exception = new SampleFormatException("sample.bad", "Bad.", 3);
        exception.SetOffsetScope("of the decompressed data");

        Assert.Equal("Bad. (byte offset 3 of the decompressed data)", exception.Message);
        Assert.Equal(("Bad.", "of the decompressed data"), (exception.Error.Message, exception.Error.OffsetScope));
        Assert.Equal("sample.bad: Bad. (byte offset 3 of the decompressed data)", exception.Error.ToString());
        Assert.Null(exception.Error.Path);
    }

    [Fact]
    public void MemberAndElement_BuildOutermostFirst_InTheWordsToStringUses()
    {
        var built = ErrorPath.Member(ErrorPath.Element(ErrorPath.Member("$", "data"), 3), "a.b");
        var prepended = new ErrorPath();
        prepended.Prepend("a.b");
        prepended.Prepend(3);
        prepended.Prepend("data");
        prepended.Prepend("$");

        Assert.Equal("$.data[3]['a.b']", built);
        Assert.Equal(prepended.ToString(), built);
        Assert.Equal("['']", ErrorPath.Member(string.Empty, string.Empty));
    }

    [Fact]
    public void LocatedFormatException_KeepsOneError_AndAddsWhatTravelsWithIt()
    {
        var cause = new IOException("disk");
        var exception = new CauseFormatException("sample.bad", "Bad.", cause);
        exception.PrependPath("x");

        Assert.Equal(("sample.bad", "Bad.", 0L), (exception.Code, exception.Reason, exception.ByteOffset));
        Assert.Equal(new Error("sample.bad", "Bad.") { Exception = cause, Path = "x", ByteOffset = 0 }, exception.Error);
    }

    private sealed class CauseFormatException(string code, string message, Exception cause) : LocatedFormatException(code, message, cause);

    private sealed class SampleFormatException(string code, string reason, long offset) : LocatedFormatException(code, reason, offset);
}

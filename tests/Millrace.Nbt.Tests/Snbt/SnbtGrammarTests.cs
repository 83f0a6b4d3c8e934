using System.Text;
using Millrace.Nbt.Snbt;

namespace Millrace.Nbt.Tests.Snbt;

/// <summary>
/// Every case of <c>snbt-cases.tsv</c>, read in both syntaxes by the parser and by the independent reading of the game's
/// grammars (<see cref="ReferenceSnbt"/>): both must give the table's verdict, a refusal must be a located
/// <see cref="NbtFormatException"/>, and what is read must write back, in its syntax, to text that reads to the same tree.
/// </summary>
public class SnbtGrammarTests
{
    public static TheoryData<int, SnbtSyntax> Cases()
    {
        var data = new TheoryData<int, SnbtSyntax>();
        for (var i = 0; i < SnbtCaseTable.Cases.Count; i++)
        {
            data.Add(i, SnbtSyntax.Legacy);
            data.Add(i, SnbtSyntax.Modern);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Parser_GivesTheGamesVerdict(int index, SnbtSyntax syntax)
    {
        var snbtCase = SnbtCaseTable.Cases[index];
        var verdict = snbtCase.Verdict(syntax);
        var options = new NbtReaderOptions { SnbtSyntax = syntax };
        if (verdict.StartsWith('!'))
        {
            var error = Assert.Throws<NbtFormatException>(() => SnbtParser.Parse(snbtCase.Input, options));
            Assert.Contains(error.Code, new[] { NbtErrorCodes.Syntax, NbtErrorCodes.Depth });
            Assert.InRange(error.ByteOffset, 0, snbtCase.Input.Length);
            Assert.False(string.IsNullOrWhiteSpace(error.Reason));
            if (verdict.Length > 2 && verdict[1] == '@')
            {
                Assert.Equal(long.Parse(verdict[2..], System.Globalization.CultureInfo.InvariantCulture), error.ByteOffset);
            }

            // The same refusal from the UTF-8 bytes, its offset counting bytes.
            if (!HasUnpairedSurrogate(snbtCase.Input))
            {
                var bytes = Encoding.UTF8.GetBytes(snbtCase.Input);
                var fromBytes = Assert.Throws<NbtFormatException>(() => SnbtParser.ParseUtf8(bytes, options));
                Assert.Equal(Encoding.UTF8.GetByteCount(snbtCase.Input.AsSpan(0, (int)error.ByteOffset)), fromBytes.ByteOffset);
            }

            return;
        }

        var tag = SnbtParser.Parse(snbtCase.Input, options);
        Assert.Equal(verdict, CanonicalTree.Print(tag));
        if (!HasUnpairedSurrogate(snbtCase.Input))
        {
            Assert.Equal(tag, SnbtParser.ParseUtf8(Encoding.UTF8.GetBytes(snbtCase.Input), options));
        }
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void ReferenceGrammar_GivesTheSameVerdict(int index, SnbtSyntax syntax)
    {
        var snbtCase = SnbtCaseTable.Cases[index];
        var verdict = snbtCase.Verdict(syntax);
        var tag = ReferenceSnbt.Parse(snbtCase.Input, syntax);
        Assert.Equal(verdict.StartsWith('!') ? null : verdict, tag is null ? null : CanonicalTree.Print(tag));
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Writer_WritesWhatTheSameGameReadsBack(int index, SnbtSyntax syntax)
    {
        var snbtCase = SnbtCaseTable.Cases[index];
        if (snbtCase.Verdict(syntax).StartsWith('!'))
        {
            return;
        }

        var options = new NbtReaderOptions { SnbtSyntax = syntax };
        var tag = SnbtParser.Parse(snbtCase.Input, options);
        foreach (var pretty in new[] { false, true })
        {
            var written = SnbtWriter.Write(tag, pretty, syntax);
            Assert.Equal(tag, SnbtParser.Parse(written, options));
            Assert.Equal(tag, ReferenceSnbt.Parse(written, syntax));
        }
    }

    private static bool HasUnpairedSurrogate(string text)
    {
        for (var i = 0; i < text.Length; i++)
        {
            if (char.IsHighSurrogate(text[i]) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(text[i]))
            {
                return true;
            }
        }

        return false;
    }
}

using Millrace.Nbt.Binary;
using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests;

public class RoundTripTests
{
    [Fact]
    public void RandomTrees_RoundTripInEveryFlavourAndCompression()
    {
        var random = new Random(2026);
        for (var i = 0; i < 300; i++)
        {
            var document = new NbtDocument(RandomTrees.String(random), RandomTrees.Compound(random, 0));
            foreach (var format in Enum.GetValues<NbtFormat>())
            {
                var compression = (NbtCompression)(i % 3);
                var bytes = document.ToArray(new NbtWriterOptions { Format = format, Compression = compression });
                var read = NbtDocument.Read(bytes, new NbtReaderOptions { Format = format });
                Assert.Equal(document.Root, read.Root);
                Assert.Equal(format == NbtFormat.JavaNetwork ? null : document.Name, read.Name);
            }
        }
    }

    // The tree reader holds a compound's tags aside until its end, every open compound's after its parent's: wide
    // compounds opened in the middle of wide compounds must come back whole, in order, and as the same bytes.
    [Fact]
    public void WideCompoundsNestedInWideCompounds_ReadBackInOrder_AsTheSameBytes()
    {
        static NbtCompound Wide(int width, int depth)
        {
            var compound = new NbtCompound();
            for (var i = 0; i < width; i++)
            {
                compound[$"t{i}"] = depth > 0 && i == width / 2 ? Wide(width, depth - 1) : new NbtInt(i * (depth + 1));
            }

            return compound;
        }

        var document = new NbtDocument("wide", Wide(150, 3));
        var bytes = document.ToArray();
        var read = NbtDocument.Read(bytes);
        Assert.Equal(document.Root, read.Root);
        Assert.Equal(((NbtCompound)document.Root).Names, ((NbtCompound)read.Root).Names);
        Assert.Equal(bytes, read.ToArray());
    }

    [Fact]
    public void ARepeatedName_KeepsItsFirstPlace_AndTheLastValue()
    {
        // {a:1b, b:2b, a:3b}, as a writer that repeats a name would put it.
        byte[] bytes = [10, 0, 0, 1, 0, 1, (byte)'a', 1, 1, 0, 1, (byte)'b', 2, 1, 0, 1, (byte)'a', 3, 0];
        var root = (NbtCompound)NbtDocument.Read(bytes).Root;
        Assert.Equal(["a", "b"], root.Names);
        Assert.Equal(new NbtByte(3), root["a"]);
    }

    // Names the tree reader keeps to hand back again: a raw zero byte (which Java's readUTF accepts as U+0000) and
    // names that are not ASCII must read as the decoder reads them, the first time and every repeat, in both byte orders.
    [Theory]
    [InlineData(NbtFormat.Java)]
    [InlineData(NbtFormat.Bedrock)]
    public void RepeatedNames_WithARawZeroOrNotAscii_ReadAsDecoded(NbtFormat format)
    {
        static byte[] Name(string utf8, NbtFormat format)
        {
            var bytes = System.Text.Encoding.UTF8.GetBytes(utf8);
            var length = format == NbtFormat.Java ? [(byte)0, (byte)bytes.Length] : new[] { (byte)bytes.Length, (byte)0 };
            return [.. length, .. bytes];
        }

        // {a\0b:1b, é:{a\0b:2b, é:3b}, a\0b:...} written by hand: Millrace itself writes U+0000 as C0 80.
        byte[] Entry(string name, params byte[] payload) => [1, .. Name(name, format), .. payload];
        byte[] inner = [.. Entry("a\0b", 2), .. Entry("é", 3), 0];
        byte[] bytes = [10, .. Name("", format), .. Entry("a\0b", 1), 10, .. Name("é", format), .. inner, .. Entry("ab", 4), 0];

        var root = (NbtCompound)NbtDocument.Read(bytes, new NbtReaderOptions { Format = format }).Root;
        Assert.Equal(["a\0b", "é", "ab"], root.Names);
        var nested = root.Get<NbtCompound>("é");
        Assert.Equal(["a\0b", "é"], nested.Names);
        Assert.Equal((1, 2, 3, 4), (root.GetValue<sbyte>("a\0b"), nested.GetValue<sbyte>("a\0b"), nested.GetValue<sbyte>("é"), root.GetValue<sbyte>("ab")));
    }

    // Short ASCII names are kept for every read in the process, a slot per hash of their first and last 8 bytes: names
    // that differ only in the middle share a slot and replace each other in it. Read by parallel workers, every tree must
    // still get its own names, at 32 bytes (kept) and 33 (never kept) alike.
    [Fact]
    public void NamesThatShareAKeptSlot_ReadRight_OnManyThreadsAtOnce()
    {
        static NbtDocument Document(int seed)
        {
            var root = new NbtCompound();
            for (var i = 0; i < 12; i++)
            {
                root.Add($"prefix__{(seed * 12) + i:D16}__suffix", new NbtInt(i));
            }

            root.Add($"prefix__{seed:D17}__suffix", new NbtInt(-1));
            root.Add("a", new NbtInt(seed));
            return new NbtDocument("", root);
        }

        var documents = Enumerable.Range(0, 16).Select(Document).ToArray();
        var bytes = documents.Select(document => document.ToArray()).ToArray();
        Assert.Equal(32, ((NbtCompound)documents[0].Root).Names.First().Length);
        Assert.Equal(33, ((NbtCompound)documents[0].Root).Names.ElementAt(12).Length);

        Parallel.For(0, 4, new ParallelOptions { MaxDegreeOfParallelism = 4 }, worker =>
        {
            for (var round = 0; round < 200; round++)
            {
                var i = ((round * 5) + worker) % documents.Length;
                var read = NbtDocument.Read(bytes[i]);
                Assert.Equal(documents[i], read);
                Assert.Equal(((NbtCompound)documents[i].Root).Names, ((NbtCompound)read.Root).Names);
            }
        });
    }

    [Fact]
    public void ShortAsciiNames_AreOneStringForEveryRead_ValuesAndLongerNamesAreEachReadsOwn()
    {
        var kept = new string('k', 32);
        var longer = new string('l', 33);
        var document = new NbtDocument("", new NbtCompound { { kept, new NbtString("value") }, { longer, new NbtByte(1) }, { "caf\u00e9", new NbtByte(2) } });
        var bytes = document.ToArray();

        // A name is kept from its second read in a row on.
        _ = NbtDocument.Read(bytes);
        var first = (NbtCompound)NbtDocument.Read(bytes).Root;
        var second = (NbtCompound)NbtDocument.Read(bytes).Root;
        Assert.Equal(document.Root, second);

        string[] firstNames = [.. first.Names], secondNames = [.. second.Names];
        Assert.Same(firstNames[0], secondNames[0]);
        Assert.NotSame(firstNames[1], secondNames[1]);
        Assert.NotSame(firstNames[2], secondNames[2]);
        Assert.NotSame(first.GetString(kept), second.GetString(kept));

        var reader = new NbtPullReader(bytes);
        reader.Read();
        reader.Read();
        Assert.Same(firstNames[0], reader.GetName());
    }

    [Theory]
    [InlineData(SnbtSyntax.Modern)]
    [InlineData(SnbtSyntax.Legacy)]
    public void RandomTrees_RoundTripThroughSnbt(SnbtSyntax syntax)
    {
        var random = new Random(11);
        var options = new NbtReaderOptions { SnbtSyntax = syntax };
        for (var i = 0; i < 300; i++)
        {
            var tag = RandomTrees.Compound(random, 0);

            // Neither game reads an empty name: a tree with one is refused, not written as something else.
            if (HasEmptyName(tag))
            {
                Assert.Contains("empty name", Assert.Throws<ArgumentException>(() => SnbtWriter.Write(tag, syntax: syntax)).Message, StringComparison.Ordinal);
                continue;
            }

            var compact = SnbtWriter.Write(tag, syntax: syntax);
            Assert.Equal(tag, SnbtParser.Parse(compact, options));
            var pretty = SnbtWriter.Write(tag, pretty: true, syntax);
            Assert.Equal(tag, SnbtParser.Parse(pretty, options));
            Assert.Equal(compact, SnbtWriter.Write(SnbtParser.Parse(compact, options), syntax: syntax));
        }

        static bool HasEmptyName(NbtTag tag) => tag switch
        {
            NbtCompound compound => compound.Any(entry => entry.Key.Length == 0 || HasEmptyName(entry.Value)),
            NbtList list => list.Any(HasEmptyName),
            _ => false,
        };
    }
}

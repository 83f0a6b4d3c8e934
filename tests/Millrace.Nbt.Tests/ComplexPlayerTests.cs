using System.IO.Compression;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Borrowed;
using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests;

// Minecraft's complex_player.dat, simdnbt's benchmark file, read in place from ../shared/data/nbt-real (its SOURCES.md
// gives where it is from): a real file, where the golden vectors are built by hand, read every way and written back as
// its exact bytes.
public class ComplexPlayerTests
{
    private static byte[] FileBytes => File.ReadAllBytes(Path.Combine(SharedData.Folder("nbt-real"), "complex_player.dat"));

    private static byte[] Uncompressed()
    {
        using var gzip = new GZipStream(new MemoryStream(FileBytes), CompressionMode.Decompress);
        using var bytes = new MemoryStream();
        gzip.CopyTo(bytes);
        return bytes.ToArray();
    }

    [SharedDataFact("nbt-real")]
    public void ReadAsAFile_IsGzipJava_AndWritesBackItsExactBytes()
    {
        var file = NbtFile.Read(FileBytes);
        Assert.Equal(NbtFormat.Java, file.Format);
        Assert.Equal(NbtCompression.Gzip, file.Compression);

        var bytes = Uncompressed();
        Assert.Equal(3_380, bytes.Length);
        Assert.Equal(bytes, file.Document.ToArray());
        Assert.Equal(file.Document, NbtFile.Read(file.Document.ToArray(new NbtWriterOptions { Compression = NbtCompression.Gzip })).Document);
    }

    [SharedDataFact("nbt-real")]
    public void BorrowedDocument_AndSnbt_GiveTheTree()
    {
        var bytes = Uncompressed();
        var tree = NbtDocument.Read(bytes);
        using (var borrowed = NbtBorrowedDocument.Parse(bytes))
        {
            Assert.Equal(tree, borrowed.ToDocument());
        }

        Assert.Equal(tree.Root, SnbtParser.Parse(tree.Root.ToString()));
    }

    [SharedDataFact("nbt-real")]
    public void PullReader_ReadsEveryToken_AndSkipsTheRootToItsEnd()
    {
        var bytes = Uncompressed();
        var reader = new NbtPullReader(bytes);
        var tokens = 0;
        while (reader.Read())
        {
            tokens++;
        }

        // A token per tag and one more per container, its end: 300 tags, 80 of them compounds and lists.
        Assert.Equal(380, tokens);
        Assert.Equal(tokens, Tokens(NbtDocument.Read(bytes).Root));

        reader = new NbtPullReader(bytes);
        Assert.True(reader.Read());
        reader.Skip();
        Assert.Equal(NbtToken.EndCompound, reader.Token);
        Assert.False(reader.Read());
    }

    private static int Tokens(NbtTag tag) => tag switch
    {
        NbtCompound compound => 2 + compound.Sum(pair => Tokens(pair.Value)),
        NbtList list => 2 + list.Sum(Tokens),
        _ => 1,
    };
}

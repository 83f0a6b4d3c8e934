using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Snbt;

/// <summary>Files the game and servers wrote (<c>../shared/data/nbt-real</c>) through SNBT in each syntax and back.</summary>
public class RealFileSnbtTests
{
    public static TheoryData<string> Files()
    {
        var data = new TheoryData<string>();
        if (SharedData.Available("nbt-real"))
        {
            foreach (var path in Directory.EnumerateFiles(SharedData.Folder("nbt-real")).Where(p => !p.EndsWith(".md", StringComparison.Ordinal)).Order(StringComparer.Ordinal))
            {
                data.Add(Path.GetFileName(path));
            }
        }

        return data;
    }

    // The one thing SNBT cannot carry is an empty list's element type: "[]" reads as a list of End, as in Minecraft.
    [SharedDataTheory("nbt-real")]
    [MemberData(nameof(Files))]
    public void RealFile_ThroughSnbtInEachSyntax_ReadsBackTheSameTree(string name)
    {
        var root = NbtFile.Read(File.ReadAllBytes(Path.Combine(SharedData.Folder("nbt-real"), name))).Document.Root;
        foreach (var syntax in new[] { SnbtSyntax.Modern, SnbtSyntax.Legacy })
        {
            // inttest1023.nbt (simdnbt's) names a tag "": neither game reads that, so it is refused, not rewritten.
            if (HasEmptyName(root))
            {
                Assert.Contains("an empty name", Assert.Throws<ArgumentException>(() => SnbtWriter.Write(root, syntax: syntax)).Message, StringComparison.Ordinal);
                continue;
            }

            var text = SnbtWriter.Write(root, pretty: true, syntax);
            var back = SnbtParser.Parse(text, new NbtReaderOptions { SnbtSyntax = syntax });
            Assert.True(SameButEmptyListTypes(root, back), $"{name} in {syntax} SNBT reads back to another tree.");
            Assert.Equal(text, SnbtWriter.Write(back, pretty: true, syntax));
        }
    }

    private static bool HasEmptyName(NbtTag tag) => tag switch
    {
        NbtCompound compound => compound.Any(entry => entry.Key.Length == 0 || HasEmptyName(entry.Value)),
        NbtList list => list.Any(HasEmptyName),
        _ => false,
    };

    private static bool SameButEmptyListTypes(NbtTag a, NbtTag b) => (a, b) switch
    {
        (NbtList x, NbtList y) when x.Count == 0 && y.Count == 0 => true,
        (NbtList x, NbtList y) => x.Count == y.Count && x.ElementType == y.ElementType && x.Zip(y).All(p => SameButEmptyListTypes(p.First, p.Second)),
        (NbtCompound x, NbtCompound y) => x.Count == y.Count && x.All(e => y.TryGet<NbtTag>(e.Key, out var other) && SameButEmptyListTypes(e.Value, other)),
        _ => a.Equals(b),
    };
}

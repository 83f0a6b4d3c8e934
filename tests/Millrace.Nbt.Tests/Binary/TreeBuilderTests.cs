using System.Text;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Binary;

// A tree read takes two passes (the tape, then the tree) for valid input and falls back to the one-pass reader for the
// rest. These tests hold the two-pass read to the one-pass reader: the same tree, in the same order, written back to the
// same bytes; and no tree where the one-pass reader refuses, so that its error is the one reported.
public class TreeBuilderTests
{
    public static TheoryData<NbtFormat> Formats => [NbtFormat.Java, NbtFormat.JavaNetwork, NbtFormat.Bedrock];

    [Theory]
    [MemberData(nameof(Formats))]
    public void ValidInput_IsTheOnePassReadersTree(NbtFormat format)
    {
        foreach (var unwrap in new[] { false, true })
        {
            var options = new NbtReaderOptions { Format = format, UnwrapHeterogeneousLists = unwrap };
            foreach (var bytes in Inputs(format))
            {
                var expected = OnePass(bytes, options);
                var built = NbtTapeTreeBuilder.TryRead(bytes, options);
                Assert.NotNull(built);
                SameTree(expected, built, format);
            }
        }
    }

    [Fact]
    public void RepeatedNames_KeepTheFirstPlaceAndTheLastTag_AsTheOnePassReader()
    {
        // {a: 1, b: 2, a: 3}: Minecraft's reader keeps a's place and its last value.
        byte[] bytes = [10, 0, 0, 3, 0, 1, (byte)'a', 0, 0, 0, 1, 3, 0, 1, (byte)'b', 0, 0, 0, 2, 3, 0, 1, (byte)'a', 0, 0, 0, 3, 0];
        var built = NbtTapeTreeBuilder.TryRead(bytes, NbtReaderOptions.Default);
        Assert.NotNull(built);
        SameTree(OnePass(bytes, NbtReaderOptions.Default), built, NbtFormat.Java);
        Assert.Equal(["a", "b"], ((NbtCompound)built.Root).Names);
        Assert.Equal(3, ((NbtCompound)built.Root).GetValue<int>("a"));
    }

    // Quotas around each tree's exact charge (the least quota the one-pass reader reads it with, found by bisection):
    // below it the two-pass read builds no tree and reports the one-pass reader's error; at it, a tree is the one-pass
    // reader's (or none: the tape is charged too, 20 bytes a tag, and may leave a tree to the one-pass reader).
    [Theory]
    [MemberData(nameof(Formats))]
    public void Quotas_RefuseWhereTheOnePassReaderRefuses(NbtFormat format)
    {
        var built = 0;
        var inputs = Inputs(format).Take(40).ToList();
        foreach (var bytes in inputs)
        {
            long low = 1, high = 1L << 32;
            while (low < high)
            {
                var middle = (low + high) / 2;
                (low, high) = Refusal(() => OnePass(bytes, Quota(format, middle))) is null ? (low, middle) : (middle + 1, high);
            }

            foreach (var quota in new[] { low - 16, low - 2, low - 1 }.Where(quota => quota >= 1))
            {
                var options = Quota(format, quota);
                Assert.Null(NbtTapeTreeBuilder.TryRead(bytes, options));
                Assert.Equal(Refusal(() => OnePass(bytes, options)), Refusal(() => NbtDocument.Read(bytes, options)));
            }

            if (NbtTapeTreeBuilder.TryRead(bytes, Quota(format, low)) is { } tree)
            {
                SameTree(OnePass(bytes, Quota(format, low)), tree, format);
                built++;
            }
        }

        // Most trees are charged more than their tapes: the exact quota is the builder's, not only the fallback's.
        Assert.True(built > inputs.Count / 2, $"{built} of {inputs.Count} built at their exact quota");
    }

    [Fact]
    public void ARepeatedString_IsOneStringInTheTree_AsTheOnePassReaderShares()
    {
        var bytes = new NbtDocument("r", new NbtCompound { ["ids"] = new NbtList { new NbtString("minecraft:stone"), new NbtString("minecraft:stone") } }).ToArray();
        var built = NbtTapeTreeBuilder.TryRead(bytes, NbtReaderOptions.Default);
        Assert.NotNull(built);
        var ids = ((NbtCompound)built.Root).Get<NbtList>("ids");
        Assert.Same(((NbtString)ids[0]).Value, ((NbtString)ids[1]).Value);
    }

    [Theory]
    [InlineData(9)]
    [InlineData(10)]
    [InlineData(11)]
    public void NestingPastMaxDepth_IsTheOnePassReadersError(int maxDepth)
    {
        NbtTag tag = new NbtInt(1);
        for (var i = 0; i < 9; i++)
        {
            tag = i % 2 == 0 ? new NbtList { tag } : new NbtCompound { ["c"] = tag };
        }

        var bytes = new NbtDocument("r", new NbtCompound { ["deep"] = tag }).ToArray();
        var options = new NbtReaderOptions { MaxDepth = maxDepth };
        var refusal = Refusal(() => OnePass(bytes, options));
        Assert.Equal(refusal is null, NbtTapeTreeBuilder.TryRead(bytes, options) is not null);
        Assert.Equal(refusal, Refusal(() => NbtDocument.Read(bytes, options)));
        Assert.Equal(maxDepth < 10, refusal is not null);
    }

    // Strings the tape leaves undecoded, in a value, a member's name and the root's name: one that is not valid in the
    // flavour's encoding gets no tree, and the read reports the one-pass reader's error, with its offset and path.
    [Theory]
    [InlineData(NbtFormat.Java, new byte[] { 0xED, 0xA0 })]
    [InlineData(NbtFormat.Java, new byte[] { 0x80 })]
    [InlineData(NbtFormat.Bedrock, new byte[] { 0xC3, 0x28 })]
    public void StringsThatDoNotDecode_AreTheOnePassReadersError(NbtFormat format, byte[] bad)
    {
        var options = new NbtReaderOptions { Format = format };
        var placeholder = new string('x', bad.Length);
        foreach (var (root, name, value, path) in new[] { ("r", "list", placeholder, "r.list[1]"), ("r", placeholder, "ok", "r"), (placeholder, "list", "ok", null) })
        {
            var bytes = new NbtDocument(root, new NbtCompound { [name] = new NbtList { new NbtString("ok"), new NbtString(value) } }).ToArray(new NbtWriterOptions { Format = format });
            bad.CopyTo(bytes, bytes.AsSpan().IndexOf(Encoding.ASCII.GetBytes(placeholder)));

            Assert.Null(NbtTapeTreeBuilder.TryRead(bytes, options));
            var expected = Assert.Throws<NbtFormatException>(() => OnePass(bytes, options));
            var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(bytes, options));
            Assert.Equal((expected.Message, expected.ByteOffset, expected.Path), (error.Message, error.ByteOffset, error.Path));
            if (path is not null)
            {
                Assert.Equal(path, error.Path);
            }
        }
    }

    [Fact]
    public void BedrockNetwork_IsLeftToTheOnePassReader()
    {
        var options = new NbtReaderOptions { Format = NbtFormat.BedrockNetwork };
        var bytes = NbtSamples.BigTest().ToArray(new NbtWriterOptions { Format = NbtFormat.BedrockNetwork });
        Assert.Null(NbtTapeTreeBuilder.TryRead(bytes, options));
        Assert.Equal(NbtSamples.BigTest().Root, NbtDocument.Read(bytes, options).Root);
    }

    private static NbtDocument OnePass(byte[] bytes, NbtReaderOptions options) => new NbtCheckingTreeReader(bytes, options).ReadDocument();

    private static NbtReaderOptions Quota(NbtFormat format, long maxBytes) => new() { Format = format, MaxBytes = maxBytes };

    // What a read refused, as a user sees it: the message, the offset and the path; null when it read.
    private static string? Refusal(Func<NbtDocument> read)
    {
        try
        {
            read();
            return null;
        }
        catch (NbtFormatException exception)
        {
            return $"{exception.Message} | {exception.ByteOffset} | {exception.Path}";
        }
    }

    // Equal as values, and in order: written back, the two trees are the same bytes.
    private static void SameTree(NbtDocument expected, NbtDocument built, NbtFormat format)
    {
        Assert.Equal(expected.Name, built.Name);
        Assert.Equal(expected.Root, built.Root);
        var writer = new NbtWriterOptions { Format = format };
        Assert.Equal(expected.ToArray(writer), built.ToArray(writer));
    }

    private static IEnumerable<byte[]> Inputs(NbtFormat format)
    {
        var writer = new NbtWriterOptions { Format = format };
        var name = format == NbtFormat.JavaNetwork ? null : "root";
        yield return new NbtDocument(name, NbtSamples.BigTest().Root).ToArray(writer);
        yield return new NbtDocument(name, NbtSamples.HelloWorld().Root).ToArray(writer);

        // Names and strings outside ASCII, an empty name, a string that repeats (shared), heterogeneous lists, empty
        // lists of each kind and every array.
        var mixed = NbtList.WithMixedTypes();
        mixed.Add(new NbtInt(1));
        mixed.Add(new NbtString("two"));
        mixed.Add(new NbtCompound { [string.Empty] = new NbtByte(3) });
        yield return new NbtDocument(name, new NbtCompound
        {
            ["caf\u00e9"] = new NbtString("smile\U0001F600"),
            [string.Empty] = new NbtString("nul\0inside"),
            ["same"] = new NbtList { new NbtString("minecraft:stone"), new NbtString("minecraft:stone") },
            ["mixed"] = mixed,
            ["empty"] = new NbtList(NbtTagType.Compound),
            ["untyped"] = new NbtList(),
            ["bytes"] = new NbtByteArray([1, 2, 255]),
            ["ints"] = new NbtIntArray([int.MinValue, -1, 0, 1, int.MaxValue]),
            ["longs"] = new NbtLongArray([long.MinValue, 1L << 40, long.MaxValue]),
            ["numbers"] = new NbtList { new NbtDouble(double.NaN), new NbtDouble(-0.0) },
            ["long name " + new string('n', 40)] = new NbtFloat(float.Epsilon),
        }).ToArray(writer);

        var random = new Random(53);
        for (var i = 0; i < 120; i++)
        {
            var root = i % 3 == 0 || format != NbtFormat.JavaNetwork ? RandomTrees.Compound(random, 0) : RandomTrees.Tag(random, 0);
            yield return new NbtDocument(name, root).ToArray(writer);
        }
    }
}

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
                var built = NbtTreeBuilder.TryRead(bytes, options);
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
        var built = NbtTreeBuilder.TryRead(bytes, NbtReaderOptions.Default);
        Assert.NotNull(built);
        SameTree(OnePass(bytes, NbtReaderOptions.Default), built, NbtFormat.Java);
        Assert.Equal(["a", "b"], ((NbtCompound)built.Root).Names);
        Assert.Equal(3, ((NbtCompound)built.Root).GetValue<int>("a"));
    }

    // Every quota from 1 byte up to the tree's charge: the two-pass read builds a tree only where the one-pass reader
    // does (it may leave one to it: its tape is charged too), and the read's error is the one-pass reader's.
    [Theory]
    [MemberData(nameof(Formats))]
    public void Quotas_RefuseWhereTheOnePassReaderRefuses(NbtFormat format)
    {
        foreach (var bytes in Inputs(format).Take(12))
        {
            for (var quota = 1L; ; quota += 1 + (quota / 16))
            {
                var options = new NbtReaderOptions { Format = format, MaxBytes = quota };
                var refusal = Refusal(() => OnePass(bytes, options));
                var built = NbtTreeBuilder.TryRead(bytes, options);
                if (refusal is not null)
                {
                    Assert.Null(built);
                    Assert.Equal(refusal, Refusal(() => NbtDocument.Read(bytes, options)));
                    continue;
                }

                if (built is not null)
                {
                    SameTree(OnePass(bytes, options), built, format);
                    break;
                }
            }
        }
    }

    // Strings the tape leaves undecoded: one that is not valid in the flavour's encoding gets no tree, and the read
    // reports the one-pass reader's error, with its offset and path.
    [Theory]
    [InlineData(NbtFormat.Java, new byte[] { 0xED, 0xA0 })]
    [InlineData(NbtFormat.Java, new byte[] { 0x80 })]
    [InlineData(NbtFormat.Bedrock, new byte[] { 0xC3, 0x28 })]
    public void StringsThatDoNotDecode_AreTheOnePassReadersError(NbtFormat format, byte[] bad)
    {
        var good = new NbtDocument("r", new NbtCompound { ["list"] = new NbtList { new NbtString("ok"), new NbtString(new string('x', bad.Length)) } })
            .ToArray(new NbtWriterOptions { Format = format });
        var at = good.AsSpan().LastIndexOf(new byte[bad.Length].Select(_ => (byte)'x').ToArray());
        bad.CopyTo(good, at);
        var options = new NbtReaderOptions { Format = format };

        Assert.Null(NbtTreeBuilder.TryRead(good, options));
        var expected = Assert.Throws<NbtFormatException>(() => OnePass(good, options));
        var error = Assert.Throws<NbtFormatException>(() => NbtDocument.Read(good, options));
        Assert.Equal(expected.Message, error.Message);
        Assert.Equal("r.list[1]", error.Path);
    }

    [Fact]
    public void BedrockNetwork_IsLeftToTheOnePassReader()
    {
        var options = new NbtReaderOptions { Format = NbtFormat.BedrockNetwork };
        var bytes = NbtSamples.BigTest().ToArray(new NbtWriterOptions { Format = NbtFormat.BedrockNetwork });
        Assert.Null(NbtTreeBuilder.TryRead(bytes, options));
        Assert.Equal(NbtSamples.BigTest().Root, NbtDocument.Read(bytes, options).Root);
    }

    private static NbtDocument OnePass(byte[] bytes, NbtReaderOptions options) => new NbtTreeReader(bytes, options).ReadDocument();

    private static string? Refusal(Func<NbtDocument> read)
    {
        try
        {
            read();
            return null;
        }
        catch (NbtFormatException exception)
        {
            return exception.Message;
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

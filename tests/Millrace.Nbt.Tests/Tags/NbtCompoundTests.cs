using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Tags;

public class NbtCompoundTests
{
    // A compound finds its tags by a scan while it has few and by an index among more: random changes that cross that
    // line both ways, against OrderedDictionary as the model of "named tags in insertion order".
    [Fact]
    public void RandomChanges_BehaveAsAnOrderedDictionary()
    {
        var random = new Random(16);
        var names = Enumerable.Range(0, 24).Select(i => "n" + i).ToArray();
        for (var run = 0; run < 200; run++)
        {
            var compound = new NbtCompound();
            var model = new OrderedDictionary<string, NbtTag>(StringComparer.Ordinal);
            for (var step = 0; step < 60; step++)
            {
                // Fresh strings, so a lookup never finds a name by its reference alone.
                var name = new string(names[random.Next(run % 2 == 0 ? 12 : names.Length)]);
                var tag = new NbtInt(random.Next());
                switch (random.Next(4))
                {
                    case 0:
                        if (model.TryAdd(name, tag))
                        {
                            compound.Add(name, tag);
                        }
                        else
                        {
                            Assert.Throws<ArgumentException>(() => compound.Add(name, tag));
                        }

                        break;
                    case 1:
                        compound[name] = tag;
                        model[name] = tag;
                        break;
                    case 2:
                        Assert.Equal(model.Remove(name), compound.Remove(name));
                        break;
                    default:
                        Assert.Equal(model.ContainsKey(name), compound.Contains(name));
                        break;
                }

                Assert.Equal(model.Count, compound.Count);
                Assert.Equal(model.Keys, compound.Names);
                Assert.Equal(model, compound.ToList());
                foreach (var known in names)
                {
                    Assert.Equal(model.TryGetValue(known, out var expected), compound.TryGet<NbtInt>(known, out var found));
                    Assert.Equal(expected, found);
                }
            }
        }
    }

    [Fact]
    public void AChangeDuringAnEnumeration_EndsIt()
    {
        var compound = new NbtCompound { { "a", new NbtByte(1) }, { "b", new NbtByte(2) } };
        Assert.Throws<InvalidOperationException>(() =>
        {
            foreach (var (name, _) in compound)
            {
                compound.Remove(name);
            }
        });
        Assert.Throws<InvalidOperationException>(() =>
        {
            foreach (var _ in compound)
            {
                compound["c"] = new NbtByte(3);
            }
        });

        // Setting a tag that is there changes no name or place: the enumeration goes on.
        foreach (var (name, _) in compound)
        {
            compound[name] = new NbtByte(9);
        }

        Assert.All(compound, tag => Assert.Equal(new NbtByte(9), tag.Value));
    }

    [Fact]
    public void Lookups_NeedAName()
    {
        var compound = new NbtCompound();
        Assert.Throws<ArgumentNullException>(() => compound.Contains(null!));
        Assert.Throws<ArgumentNullException>(() => compound.Add(null!, new NbtByte(1)));
        Assert.Throws<KeyNotFoundException>(() => compound["missing"]);
    }

    // A read's wide compound with a name repeated far apart: the first place, the last tag, as Minecraft's reader keeps
    // it; and lookups from many threads at once.
    [Fact]
    public void AWideReadCompound_KeepsARepeatedNamesFirstPlace_AndIsReadableFromManyThreads()
    {
        var writer = new System.Buffers.ArrayBufferWriter<byte>();
        var nbt = new Millrace.Nbt.Binary.NbtWriter(writer);
        nbt.WriteStartCompound(string.Empty);
        for (var i = 0; i < 40; i++)
        {
            nbt.WriteInt("t" + i, i);
        }

        nbt.WriteInt("t3", -3);
        nbt.WriteEndCompound();
        nbt.Flush();

        var root = (NbtCompound)NbtDocument.Read(writer.WrittenSpan).Root;
        Assert.Equal(40, root.Count);
        Assert.Equal(Enumerable.Range(0, 40).Select(i => "t" + i), root.Names);
        Assert.Equal(-3, root.GetValue<int>("t3"));

        // A removal drops the index; the next lookups, from several threads, make it again.
        Assert.True(root.Remove("t39"));
        System.Threading.Tasks.Parallel.For(0, 4_000, i => Assert.Equal(i % 39 == 3 ? -3 : i % 39, root.GetValue<int>("t" + (i % 39))));
    }

    // A read finds repeated names by comparing names of one sketch (length and three chars) up to 256 tags and through
    // the index beyond: widths on both sides of each line, names that often share a sketch, against OrderedDictionary.
    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    [InlineData(9)]
    [InlineData(41)]
    [InlineData(256)]
    [InlineData(257)]
    [InlineData(400)]
    public void AReadCompound_KeepsEachRepeatedNamesFirstPlaceAndLastTag_AtEveryWidth(int width)
    {
        var random = new Random(width);
        for (var run = 0; run < 40; run++)
        {
            // Length 5 with the first, middle and last chars fixed: every name has one sketch, and some repeat.
            var names = Enumerable.Range(0, width).Select(_ => $"a{(char)('a' + random.Next(26))}m{(char)('a' + random.Next(run % 2 == 0 ? 26 : 3))}z").ToArray();
            var writer = new System.Buffers.ArrayBufferWriter<byte>();
            var nbt = new Millrace.Nbt.Binary.NbtWriter(writer);
            nbt.WriteStartCompound(string.Empty);
            var model = new OrderedDictionary<string, NbtTag>(StringComparer.Ordinal);
            for (var i = 0; i < names.Length; i++)
            {
                nbt.WriteInt(names[i], i);
                model[names[i]] = new NbtInt(i);
            }

            nbt.WriteEndCompound();
            nbt.Flush();

            var root = (NbtCompound)NbtDocument.Read(writer.WrittenSpan).Root;
            Assert.Equal(model, root);
            Assert.All(model, pair => Assert.Equal(pair.Value, root[pair.Key]));
        }
    }
}

using Millrace.Nbt.Serialization;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Serialization;

/// <summary>A record read from NBT is constructed once: never cloned once per init-only member.</summary>
[NbtSerializable]
public partial record CountedSettings
{
    public CountedSettings()
    {
    }

    protected CountedSettings(CountedSettings original)
    {
        ArgumentNullException.ThrowIfNull(original);
        Interlocked.Increment(ref s_copies);
        (A, B, C, D) = (original.A, original.B, original.C, original.D);
    }

    private static int s_copies;

    public static int Copies
    {
        get => s_copies;
        set => s_copies = value;
    }

    public int A { get; init; } = 1;

    public string B { get; init; } = "b";

    public long C { get; init; } = 3;

    public double D { get; init; } = 4;
}

public class InitOnlyConstructionTests
{
    [Fact]
    public void EveryMemberPresent_IsConstructedOnceWithoutACopy()
    {
        var bytes = new NbtDocument(string.Empty, new NbtCompound { { "A", new NbtInt(10) }, { "B", new NbtString("x") }, { "C", new NbtLong(30) }, { "D", new NbtDouble(40) } }).ToArray();
        CountedSettings.Copies = 0;

        var settings = NbtSerializer.Deserialize<CountedSettings>(bytes);

        Assert.Equal(new CountedSettings { A = 10, B = "x", C = 30, D = 40 }, settings);
        Assert.Equal(0, CountedSettings.Copies);
    }

    [Fact]
    public void AbsentMembers_KeepTheirInitializers_WithAtMostOneCopy()
    {
        var bytes = new NbtDocument(string.Empty, new NbtCompound { { "C", new NbtLong(30) } }).ToArray();
        CountedSettings.Copies = 0;

        var settings = NbtSerializer.Deserialize<CountedSettings>(bytes);

        Assert.Equal(new CountedSettings { C = 30 }, settings);
        Assert.True(CountedSettings.Copies <= 1, $"{CountedSettings.Copies} copies");
    }
}

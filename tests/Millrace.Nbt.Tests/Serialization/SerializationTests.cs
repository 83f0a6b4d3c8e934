using System.Buffers;
using Millrace.Nbt.Serialization;
using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Serialization;

public enum GameMode
{
    Survival,
    Creative,
    Adventure,
}

[NbtSerializable]
public partial class Enchantment
{
    [NbtName("id")]
    public string Id { get; set; } = "";

    [NbtName("lvl")]
    public short Level { get; set; }
}

[NbtSerializable]
public partial record InventoryItem
{
    public sbyte Slot { get; init; }

    [NbtName("id")]
    public required string Id { get; init; }

    public byte Count { get; init; } = 1;

    public List<Enchantment>? Enchantments { get; init; }
}

[NbtSerializable]
public partial class PlayerData
{
    public float Health { get; set; } = 20f;

    public int FoodLevel { get; set; }

    public long Seed { get; set; }

    public double[] Pos { get; set; } = [];

    public bool Flying { get; set; }

    public GameMode Mode { get; set; }

    public string? Nickname { get; set; }

    public int? Score { get; set; }

    public int[] Uuid { get; set; } = [];

    public long[] Bits { get; set; } = [];

    public byte[] Blob { get; set; } = [];

    public List<InventoryItem> Inventory { get; set; } = [];

    public Enchantment? Favourite { get; set; }

    public List<string> Tags { get; set; } = [];

    public ushort Port { get; set; }

    [NbtIgnore]
    public string Transient { get; set; } = "not stored";
}

public class SerializationTests
{
    private static PlayerData Sample() => new()
    {
        Health = 17.5f,
        FoodLevel = 18,
        Seed = -42,
        Pos = [1.5, 64, -3.25],
        Flying = true,
        Mode = GameMode.Creative,
        Nickname = "Steve",
        Uuid = [1, 2, 3, 4],
        Bits = [long.MaxValue],
        Blob = [1, 255],
        Inventory =
        [
            new InventoryItem { Slot = 0, Id = "minecraft:diamond_sword", Enchantments = [new Enchantment { Id = "minecraft:sharpness", Level = 5 }] },
            new InventoryItem { Slot = 1, Id = "minecraft:cobblestone", Count = 64 },
        ],
        Favourite = new Enchantment { Id = "minecraft:mending", Level = 1 },
        Tags = ["a", "b"],
        Port = 65535,
    };

    private static byte[] Serialize(PlayerData value)
    {
        var output = new ArrayBufferWriter<byte>();
        NbtSerializer.Serialize(value, output, "player");
        return output.WrittenSpan.ToArray();
    }

    [Fact]
    public void GeneratedSerializer_RoundTrips()
    {
        var read = NbtSerializer.Deserialize<PlayerData>(Serialize(Sample()));
        var expected = Sample();
        Assert.Equal(expected.Health, read.Health);
        Assert.Equal(expected.Pos, read.Pos);
        Assert.Equal(expected.Mode, read.Mode);
        Assert.Equal(expected.Uuid, read.Uuid);
        Assert.Equal(expected.Bits, read.Bits);
        Assert.Equal(expected.Blob, read.Blob);
        Assert.Equal(expected.Tags, read.Tags);
        Assert.Equal(65535, read.Port);
        Assert.Null(read.Score);
        Assert.Equal("Steve", read.Nickname);
        Assert.Equal("minecraft:mending", read.Favourite!.Id);
        Assert.Equal(2, read.Inventory.Count);
        Assert.Equal(64, read.Inventory[1].Count);
        Assert.Equal(5, read.Inventory[0].Enchantments![0].Level);
        Assert.Null(read.Inventory[1].Enchantments);
        Assert.Equal("not stored", read.Transient);
    }

    [Fact]
    public void GeneratedSerializer_WritesWhatTheTreeReads()
    {
        var tree = (NbtCompound)NbtDocument.Read(Serialize(Sample())).Root;
        Assert.Equal(17.5f, tree.GetValue<float>("Health"));
        Assert.Equal((sbyte)1, tree.GetValue<sbyte>("Flying"));
        Assert.Equal(1, tree.GetValue<int>("Mode"));
        Assert.Equal(NbtTagType.Double, tree.Get<NbtList>("Pos").ElementType);
        Assert.Equal("minecraft:diamond_sword", ((NbtCompound)tree.Get<NbtList>("Inventory")[0]).GetString("id"));
        Assert.False(tree.Contains("Score"));
        Assert.False(tree.Contains("Transient"));
        Assert.Equal((short)-1, tree.GetValue<short>("Port"));
    }

    [Fact]
    public void UnknownTagsAreSkipped_AndAbsentOnesKeepTheirDefaults()
    {
        var snbt = "{Extra:{deep:[1,2,3]},Health:3.0f,Other:[I;1,2],FoodLevel:7}";
        var bytes = new NbtDocument("", SnbtParser.Parse(snbt)).ToArray();
        var read = NbtSerializer.Deserialize<PlayerData>(bytes);
        Assert.Equal(3f, read.Health);
        Assert.Equal(7, read.FoodLevel);
        Assert.Empty(read.Inventory);
    }

    // A generated reader is a reader like the others: cut short anywhere it is refused with NbtFormatException at an
    // offset inside the input, and with any byte changed it reads or refuses the input that way, never otherwise.
    [Fact]
    public void TruncatedOrCorruptedInput_IsReadOrRefusedAsAFormatError()
    {
        var bytes = Serialize(Sample());
        for (var length = 0; length < bytes.Length; length++)
        {
            var error = Assert.Throws<NbtFormatException>(() => NbtSerializer.Deserialize<PlayerData>(bytes.AsSpan(0, length)));
            Assert.InRange(error.ByteOffset, 0, length);
        }

        var random = new Random(16);
        for (var trial = 0; trial < 3000; trial++)
        {
            var input = (byte[])bytes.Clone();
            for (var changes = 1 + (trial % 3); changes > 0; changes--)
            {
                input[random.Next(input.Length)] = (byte)random.Next(256);
            }

            var exception = Record.Exception(() => NbtSerializer.Deserialize<PlayerData>(input));
            Assert.True(exception is null or NbtFormatException, $"trial {trial}: {exception}");
        }
    }

    // A typed read took the root compound and ignored whatever followed it.
    [Fact]
    public void BytesAfterTheRoot_AreRefused()
    {
        var bytes = Serialize(Sample());

        var error = Assert.Throws<NbtFormatException>(() => NbtSerializer.Deserialize<PlayerData>([.. bytes, 0]));

        Assert.Equal(NbtErrorCodes.TrailingBytes, error.Code);
        Assert.Equal(bytes.Length, error.ByteOffset);
    }

    [Fact]
    public void WrongTagType_IsAFormatErrorNamingTheTag()
    {
        var bytes = new NbtDocument("", SnbtParser.Parse("{Health:\"full\"}")).ToArray();
        var error = Assert.Throws<NbtFormatException>(() => NbtSerializer.Deserialize<PlayerData>(bytes));
        Assert.Contains("'Health' is a String; Float was expected", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void MissingRequiredTag_IsAFormatError()
    {
        var bytes = new NbtDocument("", SnbtParser.Parse("{Inventory:[{Slot:0b}]}")).ToArray();
        var error = Assert.Throws<NbtFormatException>(() => NbtSerializer.Deserialize<PlayerData>(bytes));
        Assert.Contains("required tag 'id' is missing", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ReusedWriter_SeesNoAllocationPerSerialization()
    {
        var value = Sample();
        var output = new ArrayBufferWriter<byte>(4096);
        NbtSerializer.Serialize(value, output);
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 50; i++)
        {
            output.ResetWrittenCount();
            NbtSerializer.Serialize(value, output);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Theory]
    [InlineData(NbtFormat.Bedrock)]
    [InlineData(NbtFormat.BedrockNetwork)]
    public void OtherFlavours_RoundTrip(NbtFormat format)
    {
        var output = new ArrayBufferWriter<byte>();
        NbtSerializer.Serialize(Sample(), output, format: format);
        var read = NbtSerializer.Deserialize<PlayerData>(output.WrittenSpan, new NbtReaderOptions { Format = format });
        Assert.Equal(Sample().Pos, read.Pos);
        Assert.Equal("minecraft:cobblestone", read.Inventory[1].Id);
    }
}

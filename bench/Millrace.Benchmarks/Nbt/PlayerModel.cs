using Millrace.Nbt.Serialization;

namespace Millrace.Benchmarks.Nbt;

/// <summary>The typed model of the benchmark's player file, mapped by the [NbtSerializable] generator.</summary>
[NbtSerializable]
public partial class PlayerModel
{
    public int DataVersion { get; set; }

    public double[] Pos { get; set; } = [];

    public double[] Motion { get; set; } = [];

    public float[] Rotation { get; set; } = [];

    public float Health { get; set; }

    public int FoodLevel { get; set; }

    public int XpLevel { get; set; }

    [NbtName("UUID")]
    public int[] Uuid { get; set; } = [];

    public string Dimension { get; set; } = "";

    [NbtName("abilities")]
    public AbilitiesModel? Abilities { get; set; }

    public List<ItemModel> Inventory { get; set; } = [];
}

/// <summary>A player's abilities.</summary>
[NbtSerializable]
public partial class AbilitiesModel
{
    [NbtName("flying")]
    public bool Flying { get; set; }

    [NbtName("walkSpeed")]
    public float WalkSpeed { get; set; }

    [NbtName("mayfly")]
    public bool MayFly { get; set; }
}

/// <summary>An inventory slot.</summary>
[NbtSerializable]
public partial class ItemModel
{
    public sbyte Slot { get; set; }

    [NbtName("id")]
    public string Id { get; set; } = "";

    public sbyte Count { get; set; }

    [NbtName("tag")]
    public ItemTagModel? Tag { get; set; }
}

/// <summary>An item's extra data.</summary>
[NbtSerializable]
public partial class ItemTagModel
{
    public int Damage { get; set; }

    public List<EnchantmentModel> Enchantments { get; set; } = [];
}

/// <summary>An enchantment.</summary>
[NbtSerializable]
public partial class EnchantmentModel
{
    [NbtName("id")]
    public string Id { get; set; } = "";

    [NbtName("lvl")]
    public short Level { get; set; }
}

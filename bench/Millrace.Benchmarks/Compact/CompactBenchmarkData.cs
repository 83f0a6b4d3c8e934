using System.Buffers;
using System.Text.Json.Serialization;
using MemoryPack;
using MessagePack;
using ProtoBuf;
using Millrace.Compact.Serialization;
using Millrace.Compact.Wire;

namespace Millrace.Benchmarks.Compact;

// The integer fields say what seed.proto says of them: int32 and int64, plain varints of the two's complement
// (not sint32/sint64, which zigzag), so they are IntegerEncoding.TwosComplement here too.

/// <summary>The seed's user: id, name, email, age, active, created_at and a string map.</summary>
[CompactSchema(1)]
[MemoryPackable]
[MessagePackObject]
[ProtoContract]
public partial class SeedUser
{
    [Field(1, Encoding = IntegerEncoding.TwosComplement)]
    [Key(0)]
    [ProtoMember(1)]
    [JsonPropertyName("id")]
    public long Id { get; set; }

    [Field(2)]
    [Key(1)]
    [ProtoMember(2)]
    [JsonPropertyName("name")]
    public string? Name { get; set; }

    [Field(3)]
    [Key(2)]
    [ProtoMember(3)]
    [JsonPropertyName("email")]
    public string? Email { get; set; }

    [Field(4, Encoding = IntegerEncoding.TwosComplement)]
    [Key(3)]
    [ProtoMember(4)]
    [JsonPropertyName("age")]
    public int? Age { get; set; }

    [Field(5)]
    [Key(4)]
    [ProtoMember(5)]
    [JsonPropertyName("active")]
    public bool? Active { get; set; }

    [Field(6)]
    [Key(5)]
    [ProtoMember(6)]
    [JsonPropertyName("created_at")]
    public DateTimeOffset? CreatedAt { get; set; }

    [Field(7)]
    [Key(6)]
    [ProtoMember(7)]
    [JsonPropertyName("metadata")]
    public Dictionary<string, string>? Metadata { get; set; }
}

/// <summary>The seed's product: id, name, description, price, category, in_stock, tags and a string map of specs.</summary>
[CompactSchema(2)]
[MemoryPackable]
[MessagePackObject]
[ProtoContract]
public partial class SeedProduct
{
    [Field(1, Encoding = IntegerEncoding.TwosComplement)]
    [Key(0)]
    [ProtoMember(1)]
    [JsonPropertyName("id")]
    public long Id { get; set; }

    [Field(2)]
    [Key(1)]
    [ProtoMember(2)]
    [JsonPropertyName("name")]
    public string? Name { get; set; }

    [Field(3)]
    [Key(2)]
    [ProtoMember(3)]
    [JsonPropertyName("description")]
    public string? Description { get; set; }

    [Field(4)]
    [Key(3)]
    [ProtoMember(4)]
    [JsonPropertyName("price")]
    public double? Price { get; set; }

    [Field(5)]
    [Key(4)]
    [ProtoMember(5)]
    [JsonPropertyName("category")]
    public string? Category { get; set; }

    [Field(6)]
    [Key(5)]
    [ProtoMember(6)]
    [JsonPropertyName("in_stock")]
    public bool? InStock { get; set; }

    [Field(7)]
    [Key(6)]
    [ProtoMember(7)]
    [JsonPropertyName("tags")]
    public List<string>? Tags { get; set; }

    [Field(8)]
    [Key(7)]
    [ProtoMember(8)]
    [JsonPropertyName("specs")]
    public Dictionary<string, string>? Specs { get; set; }
}

/// <summary>The seed's large struct: field_01 to field_50, strings.</summary>
[CompactSchema(3)]
[MemoryPackable]
[MessagePackObject]
[ProtoContract]
public partial class SeedLarge
{
    [Field(1)]
    [Key(0)]
    [ProtoMember(1)]
    [JsonPropertyName("field_01")]
    public string? Field01 { get; set; }

    [Field(2)]
    [Key(1)]
    [ProtoMember(2)]
    [JsonPropertyName("field_02")]
    public string? Field02 { get; set; }

    [Field(3)]
    [Key(2)]
    [ProtoMember(3)]
    [JsonPropertyName("field_03")]
    public string? Field03 { get; set; }

    [Field(4)]
    [Key(3)]
    [ProtoMember(4)]
    [JsonPropertyName("field_04")]
    public string? Field04 { get; set; }

    [Field(5)]
    [Key(4)]
    [ProtoMember(5)]
    [JsonPropertyName("field_05")]
    public string? Field05 { get; set; }

    [Field(6)]
    [Key(5)]
    [ProtoMember(6)]
    [JsonPropertyName("field_06")]
    public string? Field06 { get; set; }

    [Field(7)]
    [Key(6)]
    [ProtoMember(7)]
    [JsonPropertyName("field_07")]
    public string? Field07 { get; set; }

    [Field(8)]
    [Key(7)]
    [ProtoMember(8)]
    [JsonPropertyName("field_08")]
    public string? Field08 { get; set; }

    [Field(9)]
    [Key(8)]
    [ProtoMember(9)]
    [JsonPropertyName("field_09")]
    public string? Field09 { get; set; }

    [Field(10)]
    [Key(9)]
    [ProtoMember(10)]
    [JsonPropertyName("field_10")]
    public string? Field10 { get; set; }

    [Field(11)]
    [Key(10)]
    [ProtoMember(11)]
    [JsonPropertyName("field_11")]
    public string? Field11 { get; set; }

    [Field(12)]
    [Key(11)]
    [ProtoMember(12)]
    [JsonPropertyName("field_12")]
    public string? Field12 { get; set; }

    [Field(13)]
    [Key(12)]
    [ProtoMember(13)]
    [JsonPropertyName("field_13")]
    public string? Field13 { get; set; }

    [Field(14)]
    [Key(13)]
    [ProtoMember(14)]
    [JsonPropertyName("field_14")]
    public string? Field14 { get; set; }

    [Field(15)]
    [Key(14)]
    [ProtoMember(15)]
    [JsonPropertyName("field_15")]
    public string? Field15 { get; set; }

    [Field(16)]
    [Key(15)]
    [ProtoMember(16)]
    [JsonPropertyName("field_16")]
    public string? Field16 { get; set; }

    [Field(17)]
    [Key(16)]
    [ProtoMember(17)]
    [JsonPropertyName("field_17")]
    public string? Field17 { get; set; }

    [Field(18)]
    [Key(17)]
    [ProtoMember(18)]
    [JsonPropertyName("field_18")]
    public string? Field18 { get; set; }

    [Field(19)]
    [Key(18)]
    [ProtoMember(19)]
    [JsonPropertyName("field_19")]
    public string? Field19 { get; set; }

    [Field(20)]
    [Key(19)]
    [ProtoMember(20)]
    [JsonPropertyName("field_20")]
    public string? Field20 { get; set; }

    [Field(21)]
    [Key(20)]
    [ProtoMember(21)]
    [JsonPropertyName("field_21")]
    public string? Field21 { get; set; }

    [Field(22)]
    [Key(21)]
    [ProtoMember(22)]
    [JsonPropertyName("field_22")]
    public string? Field22 { get; set; }

    [Field(23)]
    [Key(22)]
    [ProtoMember(23)]
    [JsonPropertyName("field_23")]
    public string? Field23 { get; set; }

    [Field(24)]
    [Key(23)]
    [ProtoMember(24)]
    [JsonPropertyName("field_24")]
    public string? Field24 { get; set; }

    [Field(25)]
    [Key(24)]
    [ProtoMember(25)]
    [JsonPropertyName("field_25")]
    public string? Field25 { get; set; }

    [Field(26)]
    [Key(25)]
    [ProtoMember(26)]
    [JsonPropertyName("field_26")]
    public string? Field26 { get; set; }

    [Field(27)]
    [Key(26)]
    [ProtoMember(27)]
    [JsonPropertyName("field_27")]
    public string? Field27 { get; set; }

    [Field(28)]
    [Key(27)]
    [ProtoMember(28)]
    [JsonPropertyName("field_28")]
    public string? Field28 { get; set; }

    [Field(29)]
    [Key(28)]
    [ProtoMember(29)]
    [JsonPropertyName("field_29")]
    public string? Field29 { get; set; }

    [Field(30)]
    [Key(29)]
    [ProtoMember(30)]
    [JsonPropertyName("field_30")]
    public string? Field30 { get; set; }

    [Field(31)]
    [Key(30)]
    [ProtoMember(31)]
    [JsonPropertyName("field_31")]
    public string? Field31 { get; set; }

    [Field(32)]
    [Key(31)]
    [ProtoMember(32)]
    [JsonPropertyName("field_32")]
    public string? Field32 { get; set; }

    [Field(33)]
    [Key(32)]
    [ProtoMember(33)]
    [JsonPropertyName("field_33")]
    public string? Field33 { get; set; }

    [Field(34)]
    [Key(33)]
    [ProtoMember(34)]
    [JsonPropertyName("field_34")]
    public string? Field34 { get; set; }

    [Field(35)]
    [Key(34)]
    [ProtoMember(35)]
    [JsonPropertyName("field_35")]
    public string? Field35 { get; set; }

    [Field(36)]
    [Key(35)]
    [ProtoMember(36)]
    [JsonPropertyName("field_36")]
    public string? Field36 { get; set; }

    [Field(37)]
    [Key(36)]
    [ProtoMember(37)]
    [JsonPropertyName("field_37")]
    public string? Field37 { get; set; }

    [Field(38)]
    [Key(37)]
    [ProtoMember(38)]
    [JsonPropertyName("field_38")]
    public string? Field38 { get; set; }

    [Field(39)]
    [Key(38)]
    [ProtoMember(39)]
    [JsonPropertyName("field_39")]
    public string? Field39 { get; set; }

    [Field(40)]
    [Key(39)]
    [ProtoMember(40)]
    [JsonPropertyName("field_40")]
    public string? Field40 { get; set; }

    [Field(41)]
    [Key(40)]
    [ProtoMember(41)]
    [JsonPropertyName("field_41")]
    public string? Field41 { get; set; }

    [Field(42)]
    [Key(41)]
    [ProtoMember(42)]
    [JsonPropertyName("field_42")]
    public string? Field42 { get; set; }

    [Field(43)]
    [Key(42)]
    [ProtoMember(43)]
    [JsonPropertyName("field_43")]
    public string? Field43 { get; set; }

    [Field(44)]
    [Key(43)]
    [ProtoMember(44)]
    [JsonPropertyName("field_44")]
    public string? Field44 { get; set; }

    [Field(45)]
    [Key(44)]
    [ProtoMember(45)]
    [JsonPropertyName("field_45")]
    public string? Field45 { get; set; }

    [Field(46)]
    [Key(45)]
    [ProtoMember(46)]
    [JsonPropertyName("field_46")]
    public string? Field46 { get; set; }

    [Field(47)]
    [Key(46)]
    [ProtoMember(47)]
    [JsonPropertyName("field_47")]
    public string? Field47 { get; set; }

    [Field(48)]
    [Key(47)]
    [ProtoMember(48)]
    [JsonPropertyName("field_48")]
    public string? Field48 { get; set; }

    [Field(49)]
    [Key(48)]
    [ProtoMember(49)]
    [JsonPropertyName("field_49")]
    public string? Field49 { get; set; }

    [Field(50)]
    [Key(49)]
    [ProtoMember(50)]
    [JsonPropertyName("field_50")]
    public string? Field50 { get; set; }
}

/// <summary><see cref="SeedUser"/> for MemoryPack's version-tolerant mode: the fair peer, since it too survives added and removed members.</summary>
[MemoryPackable(GenerateType.VersionTolerant)]
public partial class SeedUserTolerant
{
    [MemoryPackOrder(0)]
    public long Id { get; set; }

    [MemoryPackOrder(1)]
    public string? Name { get; set; }

    [MemoryPackOrder(2)]
    public string? Email { get; set; }

    [MemoryPackOrder(3)]
    public int? Age { get; set; }

    [MemoryPackOrder(4)]
    public bool? Active { get; set; }

    [MemoryPackOrder(5)]
    public DateTimeOffset? CreatedAt { get; set; }

    [MemoryPackOrder(6)]
    public Dictionary<string, string>? Metadata { get; set; }

    /// <summary>The same values as <paramref name="value"/>.</summary>
    public static SeedUserTolerant From(SeedUser value) => new()
    {
        Id = value.Id,
        Name = value.Name,
        Email = value.Email,
        Age = value.Age,
        Active = value.Active,
        CreatedAt = value.CreatedAt,
        Metadata = value.Metadata,
    };
}

/// <summary><see cref="SeedProduct"/> for MemoryPack's version-tolerant mode: the fair peer, since it too survives added and removed members.</summary>
[MemoryPackable(GenerateType.VersionTolerant)]
public partial class SeedProductTolerant
{
    [MemoryPackOrder(0)]
    public long Id { get; set; }

    [MemoryPackOrder(1)]
    public string? Name { get; set; }

    [MemoryPackOrder(2)]
    public string? Description { get; set; }

    [MemoryPackOrder(3)]
    public double? Price { get; set; }

    [MemoryPackOrder(4)]
    public string? Category { get; set; }

    [MemoryPackOrder(5)]
    public bool? InStock { get; set; }

    [MemoryPackOrder(6)]
    public List<string>? Tags { get; set; }

    [MemoryPackOrder(7)]
    public Dictionary<string, string>? Specs { get; set; }

    /// <summary>The same values as <paramref name="value"/>.</summary>
    public static SeedProductTolerant From(SeedProduct value) => new()
    {
        Id = value.Id,
        Name = value.Name,
        Description = value.Description,
        Price = value.Price,
        Category = value.Category,
        InStock = value.InStock,
        Tags = value.Tags,
        Specs = value.Specs,
    };
}

/// <summary><see cref="SeedLarge"/> for MemoryPack's version-tolerant mode: the fair peer, since it too survives added and removed members.</summary>
[MemoryPackable(GenerateType.VersionTolerant)]
public partial class SeedLargeTolerant
{
    [MemoryPackOrder(0)]
    public string? Field01 { get; set; }

    [MemoryPackOrder(1)]
    public string? Field02 { get; set; }

    [MemoryPackOrder(2)]
    public string? Field03 { get; set; }

    [MemoryPackOrder(3)]
    public string? Field04 { get; set; }

    [MemoryPackOrder(4)]
    public string? Field05 { get; set; }

    [MemoryPackOrder(5)]
    public string? Field06 { get; set; }

    [MemoryPackOrder(6)]
    public string? Field07 { get; set; }

    [MemoryPackOrder(7)]
    public string? Field08 { get; set; }

    [MemoryPackOrder(8)]
    public string? Field09 { get; set; }

    [MemoryPackOrder(9)]
    public string? Field10 { get; set; }

    [MemoryPackOrder(10)]
    public string? Field11 { get; set; }

    [MemoryPackOrder(11)]
    public string? Field12 { get; set; }

    [MemoryPackOrder(12)]
    public string? Field13 { get; set; }

    [MemoryPackOrder(13)]
    public string? Field14 { get; set; }

    [MemoryPackOrder(14)]
    public string? Field15 { get; set; }

    [MemoryPackOrder(15)]
    public string? Field16 { get; set; }

    [MemoryPackOrder(16)]
    public string? Field17 { get; set; }

    [MemoryPackOrder(17)]
    public string? Field18 { get; set; }

    [MemoryPackOrder(18)]
    public string? Field19 { get; set; }

    [MemoryPackOrder(19)]
    public string? Field20 { get; set; }

    [MemoryPackOrder(20)]
    public string? Field21 { get; set; }

    [MemoryPackOrder(21)]
    public string? Field22 { get; set; }

    [MemoryPackOrder(22)]
    public string? Field23 { get; set; }

    [MemoryPackOrder(23)]
    public string? Field24 { get; set; }

    [MemoryPackOrder(24)]
    public string? Field25 { get; set; }

    [MemoryPackOrder(25)]
    public string? Field26 { get; set; }

    [MemoryPackOrder(26)]
    public string? Field27 { get; set; }

    [MemoryPackOrder(27)]
    public string? Field28 { get; set; }

    [MemoryPackOrder(28)]
    public string? Field29 { get; set; }

    [MemoryPackOrder(29)]
    public string? Field30 { get; set; }

    [MemoryPackOrder(30)]
    public string? Field31 { get; set; }

    [MemoryPackOrder(31)]
    public string? Field32 { get; set; }

    [MemoryPackOrder(32)]
    public string? Field33 { get; set; }

    [MemoryPackOrder(33)]
    public string? Field34 { get; set; }

    [MemoryPackOrder(34)]
    public string? Field35 { get; set; }

    [MemoryPackOrder(35)]
    public string? Field36 { get; set; }

    [MemoryPackOrder(36)]
    public string? Field37 { get; set; }

    [MemoryPackOrder(37)]
    public string? Field38 { get; set; }

    [MemoryPackOrder(38)]
    public string? Field39 { get; set; }

    [MemoryPackOrder(39)]
    public string? Field40 { get; set; }

    [MemoryPackOrder(40)]
    public string? Field41 { get; set; }

    [MemoryPackOrder(41)]
    public string? Field42 { get; set; }

    [MemoryPackOrder(42)]
    public string? Field43 { get; set; }

    [MemoryPackOrder(43)]
    public string? Field44 { get; set; }

    [MemoryPackOrder(44)]
    public string? Field45 { get; set; }

    [MemoryPackOrder(45)]
    public string? Field46 { get; set; }

    [MemoryPackOrder(46)]
    public string? Field47 { get; set; }

    [MemoryPackOrder(47)]
    public string? Field48 { get; set; }

    [MemoryPackOrder(48)]
    public string? Field49 { get; set; }

    [MemoryPackOrder(49)]
    public string? Field50 { get; set; }

    /// <summary>The same values as <paramref name="value"/>.</summary>
    public static SeedLargeTolerant From(SeedLarge value) => new()
    {
        Field01 = value.Field01,
        Field02 = value.Field02,
        Field03 = value.Field03,
        Field04 = value.Field04,
        Field05 = value.Field05,
        Field06 = value.Field06,
        Field07 = value.Field07,
        Field08 = value.Field08,
        Field09 = value.Field09,
        Field10 = value.Field10,
        Field11 = value.Field11,
        Field12 = value.Field12,
        Field13 = value.Field13,
        Field14 = value.Field14,
        Field15 = value.Field15,
        Field16 = value.Field16,
        Field17 = value.Field17,
        Field18 = value.Field18,
        Field19 = value.Field19,
        Field20 = value.Field20,
        Field21 = value.Field21,
        Field22 = value.Field22,
        Field23 = value.Field23,
        Field24 = value.Field24,
        Field25 = value.Field25,
        Field26 = value.Field26,
        Field27 = value.Field27,
        Field28 = value.Field28,
        Field29 = value.Field29,
        Field30 = value.Field30,
        Field31 = value.Field31,
        Field32 = value.Field32,
        Field33 = value.Field33,
        Field34 = value.Field34,
        Field35 = value.Field35,
        Field36 = value.Field36,
        Field37 = value.Field37,
        Field38 = value.Field38,
        Field39 = value.Field39,
        Field40 = value.Field40,
        Field41 = value.Field41,
        Field42 = value.Field42,
        Field43 = value.Field43,
        Field44 = value.Field44,
        Field45 = value.Field45,
        Field46 = value.Field46,
        Field47 = value.Field47,
        Field48 = value.Field48,
        Field49 = value.Field49,
        Field50 = value.Field50,
    };
}

/// <summary>The seed's data, full and sparse.</summary>
internal static class CompactBenchmarkData
{
    public static SeedUser FullUser() => new()
    {
        Id = 12345,
        Name = "Alice Johnson",
        Email = "alice.johnson@example.com",
        Age = 30,
        Active = true,
        CreatedAt = new DateTimeOffset(2024, 1, 15, 10, 30, 0, TimeSpan.Zero),
        Metadata = new() { ["role"] = "admin", ["department"] = "engineering", ["location"] = "San Francisco", ["timezone"] = "America/Los_Angeles" },
    };

    public static SeedUser SparseUser() => new() { Id = 12345, Name = "Alice Johnson" };

    public static SeedProduct Product() => new()
    {
        Id = 1001,
        Name = "Wireless Bluetooth Headphones",
        Description = "Premium noise-cancelling wireless headphones with 30-hour battery life",
        Price = 79.99,
        Category = "Electronics",
        InStock = true,
        Tags = ["wireless", "bluetooth", "audio", "headphones"],
        Specs = new() { ["battery_life"] = "30 hours", ["weight"] = "250g", ["color"] = "black" },
    };

    /// <summary>The seed's full large struct: every field set, as elixir_proto's <c>generate_large_struct_full(1)</c>.</summary>
    public static SeedLarge LargeFull() => Large(id: 1, filled: 50);

    /// <summary>
    /// Training samples for a case's zstd dictionary: 1,000 records of the case's type with varied values (ids, names,
    /// numbers, picks from small vocabularies, as a real data set has), each encoded as an uncompressed frame. The large
    /// struct's are the seed's records of other ids, as full or as sparse as the case.
    /// </summary>
    public static IEnumerable<byte[]> DictionarySamples(string caseName)
    {
        var random = new Random(20261122);
        string[] first = ["Alice", "Bob", "Carol", "Dmitri", "Erin", "Farah", "Goran", "Hana"];
        string[] last = ["Johnson", "Smith", "Okafor", "Lee", "Garcia", "Novak", "Tanaka"];
        string[] roles = ["admin", "editor", "viewer", "owner"];
        string[] departments = ["engineering", "sales", "support", "finance", "design"];
        (string City, string Zone)[] locations = [("San Francisco", "America/Los_Angeles"), ("Berlin", "Europe/Berlin"), ("Tokyo", "Asia/Tokyo"), ("Lagos", "Africa/Lagos")];
        string[] products = ["Wireless Headphones", "Mechanical Keyboard", "USB-C Hub", "Portable Speaker", "Smart Watch"];
        string[] categories = ["Electronics", "Accessories", "Audio", "Wearables"];
        string[] tags = ["wireless", "bluetooth", "audio", "usb-c", "portable", "gaming", "waterproof"];
        string[] colors = ["black", "white", "silver", "blue"];
        var output = new ArrayBufferWriter<byte>();
        for (var i = 0; i < 1000; i++)
        {
            output.ResetWrittenCount();
            if (caseName.StartsWith("large", StringComparison.Ordinal))
            {
                CompactSerializer.Serialize(Large(random.Next(2, 1_000_000), caseName == "large-10/50" ? 10 : 50), output);
            }
            else if (caseName == "product")
            {
                CompactSerializer.Serialize(
                    new SeedProduct
                    {
                        Id = random.Next(1, 100_000),
                        Name = products[random.Next(products.Length)] + " " + (char)('A' + random.Next(26)) + random.Next(10, 99),
                        Description = $"{products[random.Next(products.Length)]} with {random.Next(5, 60)}-hour battery life",
                        Price = random.Next(500, 50_000) / 100.0,
                        Category = categories[random.Next(categories.Length)],
                        InStock = random.Next(2) == 0,
                        Tags = [.. tags.OrderBy(_ => random.Next()).Take(random.Next(1, 5))],
                        Specs = new() { ["battery_life"] = $"{random.Next(5, 60)} hours", ["weight"] = $"{random.Next(50, 900)}g", ["color"] = colors[random.Next(colors.Length)] },
                    },
                    output);
            }
            else
            {
                var (name, surname, location) = (first[random.Next(first.Length)], last[random.Next(last.Length)], locations[random.Next(locations.Length)]);
                CompactSerializer.Serialize(
                    new SeedUser
                    {
                        Id = random.Next(1, 1_000_000),
                        Name = $"{name} {surname}",
                        Email = $"{name.ToLowerInvariant()}.{surname.ToLowerInvariant()}@example.com",
                        Age = random.Next(18, 80),
                        Active = random.Next(2) == 0,
                        CreatedAt = new DateTimeOffset(2024, 1, 1, 0, 0, 0, TimeSpan.Zero).AddMinutes(random.Next(0, 500_000)),
                        Metadata = new() { ["role"] = roles[random.Next(roles.Length)], ["department"] = departments[random.Next(departments.Length)], ["location"] = location.City, ["timezone"] = location.Zone },
                    },
                    output);
            }

            yield return output.WrittenSpan.ToArray();
        }
    }

    /// <summary>The seed's sparse large struct: the first 10 fields set, as elixir_proto's <c>generate_large_struct_sparse(1)</c>.</summary>
    public static SeedLarge LargeSparse() => Large(id: 1, filled: 10);

    // The seed's values, from its benchmark script (maxohq/elixir_proto, benchmarks/basic.exs), which its report does not
    // list: field i of record id holds "value_{id}_{i}", and the fields after the filled ones are nil.
    private static SeedLarge Large(int id, int filled)
    {
        var large = new SeedLarge();
        for (var field = 1; field <= filled; field++)
        {
            typeof(SeedLarge).GetProperty($"Field{field:00}")!.SetValue(large, $"value_{id}_{field}");
        }

        return large;
    }
}

/// <summary>System.Text.Json source-generated metadata for the seed's structures.</summary>
[JsonSourceGenerationOptions(DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(SeedUser))]
[JsonSerializable(typeof(SeedProduct))]
[JsonSerializable(typeof(SeedLarge))]
[JsonSerializable(typeof(List<SeedUser>))]
internal sealed partial class CompactBenchJsonContext : JsonSerializerContext;

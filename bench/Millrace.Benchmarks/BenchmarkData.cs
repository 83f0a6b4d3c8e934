using System.Text.Json.Serialization;

namespace Millrace.Benchmarks;

/// <summary>The record of the streaming seed: several properties of the usual kinds.</summary>
public sealed class TestRecord
{
    public int Id { get; set; }

    public string Name { get; set; } = "";

    public string Email { get; set; } = "";

    public int Age { get; set; }

    public double Score { get; set; }

    public bool IsActive { get; set; }

    public DateTime CreatedAt { get; set; }

    public static List<TestRecord> Create(int count) => [.. Enumerable.Range(0, count).Select(At)];

    /// <summary>The record at index <paramref name="i"/> of every benchmark's data.</summary>
    public static TestRecord At(int i) => new()
    {
        Id = i,
        Name = $"User {i}",
        Email = $"user{i}@example.com",
        Age = 20 + (i % 50),
        Score = i * 1.5,
        IsActive = i % 2 == 0,
        CreatedAt = new DateTime(2025, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddMinutes(i),
    };
}

/// <summary>The object of the base64 seed: nested lists, arrays and a dictionary, with a list of a chosen size.</summary>
public sealed class ComplexObject
{
    public int Id { get; set; }

    public string Name { get; set; } = "";

    public List<ComplexItem> Items { get; set; } = [];

    public Dictionary<string, string> Metadata { get; set; } = [];

    public int[] Numbers { get; set; } = [];

    public static ComplexObject Create(int listSize) => new()
    {
        Id = 1,
        Name = "Complex object",
        Items = [.. Enumerable.Range(0, listSize).Select(i => new ComplexItem { Id = i, Name = $"Item {i}", Value = i * 0.25, Tags = ["alpha", "beta"] })],
        Metadata = new() { ["source"] = "benchmark", ["version"] = "1" },
        Numbers = [.. Enumerable.Range(0, 16)],
    };
}

public sealed class ComplexItem
{
    public int Id { get; set; }

    public string Name { get; set; } = "";

    public double Value { get; set; }

    public string[] Tags { get; set; } = [];
}

[JsonSerializable(typeof(TestRecord))]
[JsonSerializable(typeof(List<TestRecord>))]
[JsonSerializable(typeof(System.Text.Json.JsonElement))]
[JsonSerializable(typeof(WideRecord))]
[JsonSerializable(typeof(ComplexObject))]
public sealed partial class BenchJsonContext : JsonSerializerContext;

/// <summary>A record of about 1 KB, for binding-bound benchmarks: strings, numbers, dates, a list and an array.</summary>
public sealed class WideRecord
{
    public int Id { get; set; }

    public string Name { get; set; } = "";

    public string Email { get; set; } = "";

    public string Street { get; set; } = "";

    public string City { get; set; } = "";

    public string Company { get; set; } = "";

    public string Description { get; set; } = "";

    public double Score { get; set; }

    public decimal Balance { get; set; }

    public bool Active { get; set; }

    public DateTime CreatedAt { get; set; }

    public DateTimeOffset UpdatedAt { get; set; }

    public List<string> Tags { get; set; } = [];

    public int[] Readings { get; set; } = [];

    /// <summary>The record at index <paramref name="i"/>.</summary>
    public static WideRecord At(int i) => new()
    {
        Id = i,
        Name = $"Customer number {i}",
        Email = $"customer.{i}@example.org",
        Street = $"{i % 997} Harbour Road, Suite {i % 40}",
        City = (i % 4) switch { 0 => "Tromsø", 1 => "Lisboa", 2 => "Montréal", _ => "Kraków" },
        Company = $"Millpond Holdings {i % 113} Ltd.",
        Description = string.Concat(Enumerable.Repeat($"Order history and notes for customer {i}: delivered, paid, reviewed. ", 6)),
        Score = i * 0.37,
        Balance = i * 12.5m,
        Active = i % 3 != 0,
        CreatedAt = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddMinutes(i),
        UpdatedAt = new DateTimeOffset(2025, 6, 1, 12, 0, 0, TimeSpan.FromHours(2)).AddSeconds(i),
        Tags = ["retail", $"region-{i % 9}", "priority", $"cohort-{i % 17}", "newsletter"],
        Readings = [.. Enumerable.Range(i, 12)],
    };
}

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

    public static List<TestRecord> Create(int count) =>
        [.. Enumerable.Range(0, count).Select(i => new TestRecord
        {
            Id = i,
            Name = $"User {i}",
            Email = $"user{i}@example.com",
            Age = 20 + (i % 50),
            Score = i * 1.5,
            IsActive = i % 2 == 0,
            CreatedAt = new DateTime(2025, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddMinutes(i),
        })];
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
[JsonSerializable(typeof(ComplexObject))]
public sealed partial class BenchJsonContext : JsonSerializerContext;

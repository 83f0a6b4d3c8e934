// Evolves a compact schema across two versions of a service. Version 2 drops `Nickname` (its index is reserved,
// so it can never be reused with another meaning) and adds `Email` under a new index. Old and new services
// read each other's bytes; a v1 service that stores and forwards a v2 record keeps the field it does not know.
using System.Buffers;
using Millrace.Compact.Serialization;

var v2 = new UserV2 { Id = 7, Name = "Ann", Email = "ann@example.com" };
var v2Bytes = Write(v2);
var seenByV1 = CompactSerializer.Deserialize<UserV1>(v2Bytes);
Console.WriteLine($"v2 -> v1: {seenByV1.Id} {seenByV1.Name}, nickname {seenByV1.Nickname ?? "(absent)"}, {seenByV1.Unknown?.Bytes.Length ?? 0} unknown bytes kept");

var forwarded = CompactSerializer.Deserialize<UserV2>(Write(seenByV1));
Console.WriteLine($"v2 -> v1 -> v2: {forwarded.Id} {forwarded.Name} <{forwarded.Email}>");

var v1Bytes = Write(new UserV1 { Id = 8, Name = "Bo", Nickname = "bobo" });
var seenByV2 = CompactSerializer.Deserialize<UserV2>(v1Bytes);
Console.WriteLine($"v1 -> v2: {seenByV2.Id} {seenByV2.Name}, email {seenByV2.Email ?? "(absent)"}");
Console.WriteLine($"sizes: v1 {v1Bytes.Length} bytes, v2 {v2Bytes.Length} bytes (absent fields cost nothing)");

static byte[] Write<T>(T value)
    where T : ICompactSerializable<T>
{
    var output = new ArrayBufferWriter<byte>();
    CompactSerializer.Serialize(value, output);
    return output.WrittenSpan.ToArray();
}

/// <summary>The user record as version 1 of the service knows it.</summary>
[CompactSchema(1)]
internal sealed partial class UserV1
{
    /// <summary>Gets or sets the id.</summary>
    [Field(1)] public long Id { get; set; }

    /// <summary>Gets or sets the display name.</summary>
    [Field(2)] public string? Name { get; set; }

    /// <summary>Gets or sets the nickname, dropped in version 2.</summary>
    [Field(3)] public string? Nickname { get; set; }

    /// <summary>Gets or sets the fields a newer writer added, kept so that forwarding loses nothing.</summary>
    [UnknownFields] public CompactUnknownFields? Unknown { get; set; }
}

/// <summary>The user record in version 2: field 3 is gone for good, field 4 is new.</summary>
[CompactSchema(1), ReservedFields(3)]
internal sealed partial class UserV2
{
    /// <summary>Gets or sets the id.</summary>
    [Field(1)] public long Id { get; set; }

    /// <summary>Gets or sets the display name.</summary>
    [Field(2)] public string? Name { get; set; }

    /// <summary>Gets or sets the email address, new in version 2.</summary>
    [Field(4)] public string? Email { get; set; }
}

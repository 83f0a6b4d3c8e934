using System.Buffers;
using Millrace.Compact.Schema;
using Millrace.Compact.Serialization;

namespace Millrace.Compact.Tests
{
    public enum Plan : byte
    {
        Free,
        Pro,
    }

    [CompactSchema(1)]
    public partial class TypedUser
    {
        [Field(1)]
        public long Id { get; set; }

        [Field(2)]
        public string? Name { get; set; }

        [Field(5)]
        public bool Active { get; set; }

        [Field(7)]
        public List<string>? Tags { get; set; }

        [Field(8)]
        public TypedUser? Owner { get; set; }

        [Field(9)]
        public Dictionary<string, string>? Metadata { get; set; }
    }

    [CompactSchema(3)]
    public partial record Everything
    {
        [Field(1)] public sbyte I8 { get; init; }
        [Field(2)] public short I16 { get; init; }
        [Field(3)] public int I32 { get; init; }
        [Field(4)] public long I64 { get; init; }
        [Field(5)] public byte U8 { get; init; }
        [Field(6)] public ushort U16 { get; init; }
        [Field(7)] public uint U32 { get; init; }
        [Field(8)] public ulong U64 { get; init; }
        [Field(9)] public float F32 { get; init; }
        [Field(10)] public double F64 { get; init; }
        [Field(11)] public decimal Money { get; init; }
        [Field(12)] public required string Text { get; init; }
        [Field(13)] public byte[]? Blob { get; init; }
        [Field(14)] public ReadOnlyMemory<byte> Memory { get; init; }
        [Field(15)] public Guid Key { get; init; }
        [Field(16)] public DateTime When { get; init; }
        [Field(17)] public DateTimeOffset At { get; init; }
        [Field(18)] public TimeSpan Took { get; init; }
        [Field(19)] public Plan Plan { get; init; }
        [Field(20)] public int? Maybe { get; init; }
        [Field(21)] public int[] Numbers { get; init; } = [];
        [Field(22)] public Dictionary<string, double> Scores { get; init; } = [];
    }
}

namespace Millrace.Compact.Tests.V1
{
    [CompactSchema(10)]
    public partial class Account
    {
        [Field(1)] public long Id { get; set; }

        [Field(2)] public string Name { get; set; } = "";

        [Field(3)] public int Age { get; set; }
    }
}

namespace Millrace.Compact.Tests.V2
{
    [CompactSchema(10)]
    [ReservedFields(3)]
    public partial class Account
    {
        [Field(1)] public long AccountId { get; set; }

        [Field(2)] public string DisplayName { get; set; } = "";

        [Field(4)] public string Email { get; set; } = "unknown";
    }

    [CompactSchema(10)]
    public partial class AccountWithStringAge
    {
        [Field(3)] public string Age { get; set; } = "";
    }
}

namespace Millrace.Compact.Tests
{
    public class TypedSchemaTests
    {
        private static byte[] Serialize<T>(T value)
            where T : ICompactSerializable<T>
        {
            var output = new ArrayBufferWriter<byte>();
            CompactSerializer.Serialize(value, output);
            return output.WrittenSpan.ToArray();
        }

        [Fact]
        public void TypedEncoding_MatchesTheSpecAndTheRuntimeSchema()
        {
            var bytes = Serialize(new TypedUser { Id = 300, Active = true, Tags = ["a", "bc"] });
            Assert.Equal("010001" + "04D804" + "1401" + "1F06020161026263", Convert.ToHexString(bytes));
            var schema = CompactSchemaSet.Parse(CompactTestSupport.UserSchema);
            Assert.Equal("""{"id":300,"active":true,"tags":["a","bc"]}""", CompactTestSupport.Decode(schema, bytes));

            var fromJson = CompactTestSupport.Encode(schema, "User", """{"id":1,"name":"Ann","owner":{"id":2},"metadata":{"k":"v"}}""");
            var typed = CompactSerializer.Deserialize<TypedUser>(fromJson);
            Assert.Equal(("Ann", 2L, "v"), (typed.Name, typed.Owner!.Id, typed.Metadata!["k"]));
        }

        [Fact]
        public void EveryMemberType_RoundTrips()
        {
            var random = new Random(9);
            for (var i = 0; i < 200; i++)
            {
                var value = new Everything
                {
                    I8 = (sbyte)random.Next(-128, 128),
                    I16 = (short)random.Next(short.MinValue, short.MaxValue),
                    I32 = random.Next(int.MinValue, int.MaxValue),
                    I64 = random.NextInt64(long.MinValue, long.MaxValue),
                    U8 = (byte)random.Next(256),
                    U16 = (ushort)random.Next(ushort.MaxValue),
                    U32 = (uint)random.NextInt64(uint.MaxValue),
                    U64 = (ulong)random.NextInt64(long.MaxValue) * 2,
                    F32 = (float)random.NextDouble(),
                    F64 = random.NextDouble() * 1e300,
                    Money = Math.Round((decimal)random.NextDouble() * 1_000_000m, 3),
                    Text = "ü" + random.Next(),
                    Blob = random.Next(3) == 0 ? null : [.. Enumerable.Range(0, random.Next(8)).Select(_ => (byte)random.Next(256))],
                    Memory = new byte[] { 1, 2, 3 },
                    Key = Guid.NewGuid(),
                    When = new DateTime(random.NextInt64(DateTime.UnixEpoch.Ticks, DateTime.MaxValue.Ticks / 2), DateTimeKind.Utc),
                    At = DateTimeOffset.UnixEpoch.AddTicks(random.NextInt64(0, 1L << 58)),
                    Took = TimeSpan.FromTicks(random.NextInt64(-1L << 50, 1L << 50)),
                    Plan = (Plan)random.Next(2),
                    Maybe = random.Next(2) == 0 ? null : random.Next(),
                    Numbers = [.. Enumerable.Range(0, random.Next(5)).Select(_ => random.Next())],
                    Scores = new Dictionary<string, double> { ["a"] = random.NextDouble() },
                };

                var read = CompactSerializer.Deserialize<Everything>(Serialize(value));
                Assert.Equal(value.Blob, read.Blob);
                Assert.Equal(value.Memory.ToArray(), read.Memory.ToArray());
                Assert.Equal(value.Numbers, read.Numbers);
                Assert.Equal(value.Scores, read.Scores);
                Assert.Equal(value with { Blob = read.Blob, Memory = read.Memory, Numbers = read.Numbers, Scores = read.Scores }, read);
            }
        }

        [Fact]
        public void NestedValuesOfAnySize_WrittenInOnePass_GiveTheRuntimeSchemasBytes()
        {
            // Lengths are written after their values (one byte reserved, the value moved up when it needs more): over
            // spans of 1 to 17 bytes, nested owners, lists and maps of any size must give the bytes the schema-driven
            // encoder gives, and as many as GetFieldsSize says.
            var schema = CompactSchemaSet.Parse(CompactTestSupport.UserSchema);
            var random = new Random(16);
            for (var i = 0; i < 200; i++)
            {
                var (user, json) = RandomUser(random, depth: 0);
                var output = new TinySpanWriter(random);
                CompactSerializer.Serialize(user, output);
                var bytes = output.Written.ToArray();

                Assert.Equal(CompactTestSupport.Encode(schema, "User", json.ToJsonString()), bytes);
                Assert.Equal(user.GetFieldsSize(), bytes.Length - 3);
                Assert.Equal(CompactTestSupport.Normalize(json.ToJsonString()), CompactTestSupport.Decode(schema, bytes));
            }
        }

        private static (TypedUser User, System.Text.Json.Nodes.JsonObject Json) RandomUser(Random random, int depth)
        {
            var user = new TypedUser
            {
                Id = random.NextInt64(-1L << 40, 1L << 40),
                Name = random.Next(2) == 0 ? new string('n', random.Next(0, 300)) : null,
                Active = random.Next(2) == 0,
                Tags = random.Next(2) == 0 ? [.. Enumerable.Range(0, random.Next(0, 40)).Select(t => new string('t', random.Next(0, 30)) + t)] : null,
                Metadata = random.Next(2) == 0 ? Enumerable.Range(0, random.Next(0, 20)).ToDictionary(k => "key" + k, k => new string('v', random.Next(0, 50))) : null,
            };
            System.Text.Json.Nodes.JsonObject? ownerJson = null;
            if (depth < 3 && random.Next(2) == 0)
            {
                (user.Owner, ownerJson) = RandomUser(random, depth + 1);
            }

            // The schema-driven encoder writes fields in the JSON's order: give them in index order, as the type writes them.
            var json = new System.Text.Json.Nodes.JsonObject { ["id"] = user.Id };
            if (user.Name is not null)
            {
                json["name"] = user.Name;
            }

            json["active"] = user.Active;
            if (user.Tags is not null)
            {
                json["tags"] = new System.Text.Json.Nodes.JsonArray([.. user.Tags.Select(t => (System.Text.Json.Nodes.JsonNode?)t)]);
            }

            if (ownerJson is not null)
            {
                json["owner"] = ownerJson;
            }

            if (user.Metadata is not null)
            {
                json["metadata"] = new System.Text.Json.Nodes.JsonObject([.. user.Metadata.Select(p => KeyValuePair.Create(p.Key, (System.Text.Json.Nodes.JsonNode?)p.Value))]);
            }

            return (user, json);
        }

        /// <summary>A buffer writer that gives spans of 1 to 17 bytes, fresh each time, so every slow path of the writer runs.</summary>
        private sealed class TinySpanWriter(Random random) : IBufferWriter<byte>
        {
            private byte[] _span = [];

            public List<byte> Written { get; } = [];

            public void Advance(int count) => Written.AddRange(_span.AsSpan(0, count));

            public Memory<byte> GetMemory(int sizeHint = 0) => throw new NotSupportedException();

            public Span<byte> GetSpan(int sizeHint = 0)
            {
                _span = new byte[Math.Max(sizeHint, random.Next(1, 18))];
                return _span;
            }
        }

        [Fact]
        public void Collections_WriteTheTypeHeaderOnce()
        {
            var users = Enumerable.Range(1, 100).Select(i => new TypedUser { Id = i, Name = "user" + i }).ToList();
            var output = new ArrayBufferWriter<byte>();
            CompactSerializer.SerializeMany(users, output);
            var read = CompactSerializer.DeserializeMany<TypedUser>(output.WrittenMemory);
            Assert.Equal(users.Select(u => (u.Id, u.Name)), read.Select(u => (u.Id, u.Name)));
        }

        [Fact]
        public void Evolution_AcrossTwoVersionsOfAType()
        {
            var v1 = Serialize(new V1.Account { Id = 7, Name = "Ann", Age = 30 });
            var asV2 = CompactSerializer.Deserialize<V2.Account>(v1);
            Assert.Equal((7L, "Ann", "unknown"), (asV2.AccountId, asV2.DisplayName, asV2.Email));

            var v2 = Serialize(new V2.Account { AccountId = 8, DisplayName = "Bo", Email = "bo@x.y" });
            var asV1 = CompactSerializer.Deserialize<V1.Account>(v2);
            Assert.Equal((8L, "Bo", 0), (asV1.Id, asV1.Name, asV1.Age));

            var error = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<V2.AccountWithStringAge>(v1));
            Assert.Contains("type changed", error.Message, StringComparison.Ordinal);
            Assert.Equal("Age", error.Path);
        }

        [Fact]
        public void MissingRequiredField_AndWrongTypeId_AreFormatErrors()
        {
            var bytes = Serialize(new Everything { Text = "x" });
            bytes[2] = 1;
            Assert.Contains("type id 1", Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Everything>(bytes)).Message, StringComparison.Ordinal);
            Assert.Contains("required field 'Text'", Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Everything>(new byte[] { 1, 0, 3 })).Message, StringComparison.Ordinal);
        }

        [Fact]
        public void EncodingIntoAReusedWriter_AllocatesNothing()
        {
            var value = new TypedUser { Id = 1, Name = "Ann", Tags = ["a", "b"], Owner = new TypedUser { Id = 2 }, Metadata = new() { ["k"] = "v" } };
            var output = new ArrayBufferWriter<byte>(1024);
            CompactSerializer.Serialize(value, output);
            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < 100; i++)
            {
                output.ResetWrittenCount();
                CompactSerializer.Serialize(value, output);
            }

            Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        [Fact]
        public void EveryTruncationOfATypedPayload_RaisesCompactFormatExceptionOnly()
        {
            var bytes = Serialize(new TypedUser { Id = 1, Name = "Ann", Tags = ["a", "b"], Owner = new TypedUser { Id = 2 }, Metadata = new() { ["k"] = "v" } });
            for (var length = 0; length < bytes.Length; length++)
            {
                var exception = Record.Exception(() => CompactSerializer.Deserialize<TypedUser>(bytes.AsMemory(0, length)));
                Assert.True(exception is null or CompactFormatException, exception?.ToString());
            }
        }
    }
}

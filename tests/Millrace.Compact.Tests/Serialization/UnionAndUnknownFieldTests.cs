using System.Buffers;
using Millrace.Compact.Serialization;

namespace Millrace.Compact.Tests
{
    [CompactSchema(20)]
    [CompactUnion(1, typeof(Circle))]
    [CompactUnion(2, typeof(Square))]
    public abstract partial class Shape;

    [CompactSchema(21)]
    public partial class Circle : Shape
    {
        [Field(1)] public double Radius { get; set; }
    }

    [CompactSchema(22)]
    public partial class Square : Shape
    {
        [Field(1)] public double Side { get; set; }

        [Field(2)] public string? Label { get; set; }
    }

    [CompactSchema(23)]
    public partial class Drawing
    {
        [Field(1)] public Shape? Main { get; set; }

        [Field(2)] public List<Shape> Shapes { get; set; } = [];
    }

    [CompactSchema(24)]
    public partial class Settings
    {
        [Field(1, OmitDefault = true)] public int Retries { get; set; }

        [Field(2, OmitDefault = true)] public string Name { get; set; } = "";

        [Field(3, OmitDefault = true)] public bool Verbose { get; set; }

        [Field(4)] public int Always { get; set; }
    }
}

namespace Millrace.Compact.Tests.Newer
{
    [CompactSchema(30)]
    public partial class Profile
    {
        [Field(1)] public long Id { get; set; }

        [Field(2)] public string Name { get; set; } = "";

        [Field(3)] public List<string> Roles { get; set; } = [];
    }
}

namespace Millrace.Compact.Tests.Older
{
    [CompactSchema(30)]
    public partial class Profile
    {
        [Field(1)] public long Id { get; set; }

        [UnknownFields] public CompactUnknownFields? Unknown { get; set; }
    }
}

namespace Millrace.Compact.Tests
{
    public class UnionAndUnknownFieldTests
    {
        private static byte[] Serialize<T>(T value)
            where T : ICompactSerializable<T>
        {
            var output = new ArrayBufferWriter<byte>();
            CompactSerializer.Serialize(value, output);
            return output.WrittenSpan.ToArray();
        }

        [Fact]
        public void Unions_RoundTripEachCase()
        {
            var drawing = new Drawing { Main = new Circle { Radius = 2 }, Shapes = [new Square { Side = 3, Label = "s" }, new Circle { Radius = 1 }] };
            var read = CompactSerializer.Deserialize<Drawing>(Serialize(drawing));
            Assert.Equal(2, Assert.IsType<Circle>(read.Main).Radius);
            Assert.Equal("s", Assert.IsType<Square>(read.Shapes[0]).Label);
            Assert.Equal(1, Assert.IsType<Circle>(read.Shapes[1]).Radius);

            var shape = CompactSerializer.Deserialize<Shape>(Serialize<Shape>(new Square { Side = 4 }));
            Assert.Equal(4, Assert.IsType<Square>(shape).Side);
        }

        [Fact]
        public void Unions_MatchTheSpecExample()
        {
            var bytes = Serialize(new Drawing { Main = new Square { Side = 4 } });
            Assert.Equal("010017" + "070B" + "0B09" + "060000000000001040" + "0B0100", Convert.ToHexString(bytes));
        }

        [Fact]
        public void Unions_UnknownTag_IsAClearError()
        {
            // A Drawing whose Main holds case tag 9: key 1/LD (0x07), 2 bytes: key 9/LD (0x27), empty record.
            byte[] bytes = [1, 0, 23, 0x07, 0x02, 0x27, 0x00];
            var error = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Drawing>(bytes));
            Assert.Contains("Union Shape has no case with tag 9", error.Message, StringComparison.Ordinal);
            Assert.Equal("Main", error.Path);
        }

        [Fact]
        public void UnknownField_CutShortAfterAKnownOne_HasNoFieldInItsPath()
        {
            // Settings: Always (4, varint) = 5, then an unknown field 9 declaring 5 bytes where 1 is left.
            byte[] bytes = [1, 0, 24, 0x10, 0x05, 0x27, 0x05, 0x00];
            var error = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Settings>(bytes));
            Assert.Equal(CompactErrorCodes.BadLength, error.Code);
            Assert.True(string.IsNullOrEmpty(error.Path), error.Path);
        }

        [Fact]
        public void KnownField_CutShortAfterAnother_HasItsNameInItsPath()
        {
            // Settings: Always (4) = 5, then Name (2, length-delimited) declaring 5 bytes where 1 is left.
            byte[] bytes = [1, 0, 24, 0x10, 0x05, 0x0B, 0x05, 0x61];
            var error = Assert.Throws<CompactFormatException>(() => CompactSerializer.Deserialize<Settings>(bytes));
            Assert.Equal(CompactErrorCodes.BadLength, error.Code);
            Assert.Equal("Name", error.Path);
        }

        [Fact]
        public void OmitDefault_CostsZeroBytesForDefaults()
        {
            Assert.Equal("010018" + "1000", Convert.ToHexString(Serialize(new Settings())));
            var read = CompactSerializer.Deserialize<Settings>(Serialize(new Settings { Retries = 3, Name = "x", Verbose = true, Always = 1 }));
            Assert.Equal((3, "x", true, 1), (read.Retries, read.Name, read.Verbose, read.Always));
        }

        [Fact]
        public void UnknownFields_ArePreservedAndReEmitted()
        {
            var newer = new Newer.Profile { Id = 5, Name = "Ann", Roles = ["admin", "dev"] };
            var bytes = Serialize(newer);
            var older = CompactSerializer.Deserialize<Older.Profile>(bytes);
            Assert.Equal(5, older.Id);
            Assert.NotNull(older.Unknown);

            older.Id = 6;
            var reEncoded = CompactSerializer.Deserialize<Newer.Profile>(Serialize(older));
            Assert.Equal((6L, "Ann"), (reEncoded.Id, reEncoded.Name));
            Assert.Equal(["admin", "dev"], reEncoded.Roles);
        }

        [Fact]
        public void MultiSegmentSequences_AreRead()
        {
            var bytes = Serialize(new Newer.Profile { Id = 9, Name = "segmented" });
            var first = new Segment(bytes.AsMemory(0, 4));
            var last = first.Append(bytes.AsMemory(4));
            var read = CompactSerializer.Deserialize<Newer.Profile>(new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length));
            Assert.Equal("segmented", read.Name);
        }

        private sealed class Segment : ReadOnlySequenceSegment<byte>
        {
            public Segment(ReadOnlyMemory<byte> memory) => Memory = memory;

            public Segment Append(ReadOnlyMemory<byte> memory)
            {
                var next = new Segment(memory) { RunningIndex = RunningIndex + Memory.Length };
                Next = next;
                return next;
            }
        }
    }
}

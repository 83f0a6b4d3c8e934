using System.Buffers;
using System.Buffers.Binary;
using System.IO.Compression;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using Millrace.Nbt;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Borrowed;
using Millrace.Nbt.Tags;

namespace Millrace.Benchmarks.Nbt;

/// <summary>
/// The NBT seed's rows (deserialize, serialize and round trip of simple, complex, deeply nested and large-array
/// tags) plus bigtest.nbt, a 3 KB player file, an 18 KB item list and Minecraft's
/// complex_player.dat (simdnbt publishes its throughput for it; read in place from ../shared/data/nbt-real).
/// Serialization writes into a reused buffer writer; reads build a tree from uncompressed bytes; a floor row walks every
/// tag with no checks, the part of every whole-document read that no reader can leave out. fNbt and SharpNBT,
/// the peers, are not served by the registry mirror (docs/dependencies.md), so their rows cannot run.
/// </summary>
[MemoryDiagnoser]
public class NbtBenchmarks
{
    // The bare walk's stack of open containers: small, as every call clears it; the setup checks that no input nests
    // deeper.
    private const int MaxWalkDepth = 64;

    private readonly ArrayBufferWriter<byte> _output = new(64 * 1024);
    private NbtDocument _document = null!;
    private byte[] _bytes = [];
    private ReadOnlyMemory<byte> _memory;

    // The payload sizes of the fixed-size types, by type; 0 for the rest. A table: choosing the size by comparisons made
    // the bare walk slower (stopwatch, complex_player.dat: 1.25 against 1.20 µs).
    private static ReadOnlySpan<byte> FixedSizes => [0, 1, 2, 4, 8, 4, 8, 0, 0, 0, 0, 0, 0];

    /// <summary>Gets the shapes: <see cref="NbtBenchmarkData.Shapes"/>.</summary>
    public static IEnumerable<string> Shapes => NbtBenchmarkData.Shapes;

    [ParamsSource(nameof(Shapes))]
    public string Shape { get; set; } = "simple";

    [GlobalSetup]
    public void Setup()
    {
        _document = NbtBenchmarkData.Create(Shape);
        _bytes = _document.ToArray();
        if (!NbtDocument.Read(_bytes).Equals(_document))
        {
            throw new InvalidOperationException("The round trip disagrees with the data.");
        }

        // A real file: what the tree writes back must be the file's own bytes (gzip taken off), or the rates compare
        // different work with simdnbt's.
        if (Shape == NbtBenchmarkData.ComplexPlayer)
        {
            using var gzip = new GZipStream(File.OpenRead(NbtBenchmarkData.ComplexPlayerPath), CompressionMode.Decompress);
            using var original = new MemoryStream();
            gzip.CopyTo(original);
            if (!original.ToArray().AsSpan().SequenceEqual(_bytes))
            {
                throw new InvalidOperationException("complex_player.dat written back differs from its bytes.");
            }
        }

        // The floor must visit what the readers visit: every tag, to the input's last byte. Its deepest container takes
        // the stack's slot Depth - 1.
        if (Depth(_document.Root) > MaxWalkDepth)
        {
            throw new InvalidOperationException("The shape nests deeper than the bare walk's stack.");
        }

        if (BareWalk() != Tags(_document.Root))
        {
            throw new InvalidOperationException("The bare walk disagrees with the tree.");
        }

        _memory = _bytes;
        EncodedBytes = _bytes.Length;
        RetainedTreeBytes = RetainedBytes();
    }

    /// <summary>The size of the current shape's NBT bytes, known after <see cref="Setup"/>.</summary>
    public int EncodedBytes { get; private set; }

    /// <summary>The managed memory one tree of the current shape keeps alive, known after <see cref="Setup"/>.</summary>
    public long RetainedTreeBytes { get; private set; }

    [Benchmark(Description = "Deserialize (tree)")]
    public NbtDocument Deserialize() => NbtDocument.Read(_bytes);

    [Benchmark(Description = "Serialize (reused writer)")]
    public int Serialize()
    {
        _output.ResetWrittenCount();
        _document.Write(_output);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "Round trip")]
    public int RoundTrip()
    {
        _output.ResetWrittenCount();
        NbtDocument.Read(_bytes).Write(_output);
        return _output.WrittenCount;
    }

    // The input stays where it is: the document checks it, records where each tag lies, and gives its tape back to the
    // pool when disposed (simdnbt::borrow's benchmark likewise drops what it parsed).
    [Benchmark(Description = "Borrowed document (parse + dispose)")]
    public int Borrowed()
    {
        using var document = NbtBorrowedDocument.Parse(_memory);
        return document.Root.TagType == NbtTagType.Compound ? 1 : 0;
    }

    [Benchmark(Description = "Pull reader skim (Read + Skip)")]
    public int Skim()
    {
        var reader = new NbtPullReader(_bytes);
        var tokens = 0;
        reader.Read();
        while (reader.Read() && reader.Depth > 0)
        {
            reader.Skip();
            tokens++;
        }

        return tokens;
    }

    // The walk every reader of a whole document does, and nothing else, to show how fast that part alone goes on the
    // machine: one pass that finds each tag and steps over it (no bounds, depth or quota checks, no tape, no names, no
    // output). Java's flavour only, and only over this benchmark's own inputs, which the setup has read and checked: it
    // trusts every type and length. It counts the tags, so none of the work can be left out.
    [Benchmark(Description = "Floor: bare walk of every tag (no checks)")]
    public int BareWalk()
    {
        ref var start = ref MemoryMarshal.GetArrayDataReference(_bytes);
        if (start != (byte)NbtTagType.Compound)
        {
            throw new NotSupportedException("The bare walk starts at a compound root.");
        }

        // The open containers: a list's elements still to walk (-1 for a compound) and its element type.
        ref var remaining = ref MemoryMarshal.GetReference(stackalloc int[MaxWalkDepth]);
        ref var elementTypes = ref MemoryMarshal.GetReference(stackalloc byte[MaxWalkDepth]);
        var at = 3 + (nint)((Unsafe.Add(ref start, 1) << 8) | Unsafe.Add(ref start, 2));
        var tags = 1;
        var depth = 0;
        remaining = -1;

    Compound:
        while (true)
        {
            var type = Unsafe.Add(ref start, at);
            if (type == 0)
            {
                at++;
                break;
            }

            at += 3 + ((Unsafe.Add(ref start, at + 1) << 8) | Unsafe.Add(ref start, at + 2));
            tags++;
            var size = Unsafe.Add(ref MemoryMarshal.GetReference(FixedSizes), type);
            if (size > 0)
            {
                at += size;
            }
            else if (type == (byte)NbtTagType.Compound)
            {
                Unsafe.Add(ref remaining, ++depth) = -1;
            }
            else if (StepOver(ref start, ref at, ref tags, type, out var count, out var elementType))
            {
                Unsafe.Add(ref remaining, ++depth) = count;
                Unsafe.Add(ref elementTypes, depth) = elementType;
                goto List;
            }
        }

    Up:
        if (depth == 0)
        {
            return at == _bytes.Length ? tags : -1;
        }

        depth--;
        if (Unsafe.Add(ref remaining, depth) < 0)
        {
            goto Compound;
        }

    List:
        while (Unsafe.Add(ref remaining, depth) > 0)
        {
            Unsafe.Add(ref remaining, depth)--;
            tags++;
            var type = Unsafe.Add(ref elementTypes, depth);
            if (type == (byte)NbtTagType.Compound)
            {
                Unsafe.Add(ref remaining, ++depth) = -1;
                goto Compound;
            }

            if (StepOver(ref start, ref at, ref tags, type, out var count, out var elementType))
            {
                Unsafe.Add(ref remaining, ++depth) = count;
                Unsafe.Add(ref elementTypes, depth) = elementType;
            }
        }

        goto Up;
    }

    // Steps over a string, a number array or a list's header (and its elements, when they have a fixed size or there are
    // none); says when the list's elements must be walked.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool StepOver(ref byte start, ref nint at, ref int tags, byte type, out int count, out byte elementType)
    {
        count = 0;
        elementType = 0;
        if (type == (byte)NbtTagType.String)
        {
            at += 2 + ((Unsafe.Add(ref start, at) << 8) | Unsafe.Add(ref start, at + 1));
            return false;
        }

        if (type != (byte)NbtTagType.List)
        {
            var length = BinaryPrimitives.ReadInt32BigEndian(MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref start, at), 4));
            at += 4 + ((nint)length * (type == (byte)NbtTagType.ByteArray ? 1 : type == (byte)NbtTagType.IntArray ? 4 : 8));
            return false;
        }

        elementType = Unsafe.Add(ref start, at);
        count = BinaryPrimitives.ReadInt32BigEndian(MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref start, at + 1), 4));
        at += 5;
        var size = Unsafe.Add(ref MemoryMarshal.GetReference(FixedSizes), elementType);
        if (size > 0 || count == 0)
        {
            at += (nint)size * count;
            tags += count;
            return false;
        }

        return true;
    }

    private static int Tags(NbtTag tag) => 1 + tag switch
    {
        NbtCompound compound => compound.Sum(entry => Tags(entry.Value)),
        NbtList list => list.Sum(Tags),
        _ => 0,
    };

    private static int Depth(NbtTag tag) => tag switch
    {
        NbtCompound compound => 1 + compound.Select(entry => Depth(entry.Value)).DefaultIfEmpty(0).Max(),
        NbtList list => 1 + list.Select(Depth).DefaultIfEmpty(0).Max(),
        _ => 0,
    };

    private long RetainedBytes()
    {
        // A read first, kept nowhere: what the process sets up once (shared names, pools) is not the tree's.
        GC.KeepAlive(NbtDocument.Read(_bytes));
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        var before = GC.GetTotalMemory(forceFullCollection: true);
        var tree = NbtDocument.Read(_bytes);
        var after = GC.GetTotalMemory(forceFullCollection: true);
        GC.KeepAlive(tree);
        return after - before;
    }
}
